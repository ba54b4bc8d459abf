//! Scope-aware renaming of a function body's locals and labels.
//!
//! Used when a body is copied (thread slots, inlining): every local declared in the body
//! (and every parameter) gets a fresh name from [`Names::local`], uses are renamed following
//! C's block scopes (a local shadowing a global renames only the uses it shadows), and every
//! label gets a fresh name. `extern` declarations inside the body keep their names.

use super::build::declarator_name_mut;
use super::names::Names;
use super::walk::{self, VisitMut};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

pub struct Renamer<'a> {
    names: &'a mut Names,
    scopes: Vec<HashMap<String, String>>,
    labels: HashMap<String, String>,
    /// Every (original, new) pair, in declaration order.
    pub renamed: Vec<(String, String)>,
}

impl<'a> Renamer<'a> {
    /// A renamer whose outermost scope maps the given parameters.
    pub fn new(names: &'a mut Names, params: &[String]) -> Renamer<'a> {
        let mut r = Renamer {
            names,
            scopes: vec![HashMap::new()],
            labels: HashMap::new(),
            renamed: vec![],
        };
        for p in params {
            r.bind(p);
        }
        r
    }

    fn bind(&mut self, orig: &str) -> String {
        let new = self.names.local(orig);
        self.scopes
            .last_mut()
            .expect("scope")
            .insert(orig.to_string(), new.clone());
        self.renamed.push((orig.to_string(), new.clone()));
        new
    }

    /// The new name of parameter/local `orig` in the outermost scope.
    pub fn outer(&self, orig: &str) -> Option<&str> {
        self.scopes[0].get(orig).map(|s| s.as_str())
    }

    fn lookup(&self, name: &str) -> Option<&String> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Renames a whole body (the function's outermost compound shares the parameter scope).
    pub fn body(&mut self, s: &mut Node<Statement>) {
        if let Statement::Compound(items) = &mut s.node {
            for it in items {
                walk::walk_block_item(self, it);
            }
        } else {
            self.stmt(s);
        }
    }
}

fn is_extern_or_typedef(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(
            &s.node,
            DeclarationSpecifier::StorageClass(sc)
                if matches!(sc.node, StorageClassSpecifier::Extern | StorageClassSpecifier::Typedef)
        )
    })
}

fn is_function_declarator(d: &Declarator) -> bool {
    matches!(
        d.derived.last().map(|x| &x.node),
        Some(DerivedDeclarator::Function(_)) | Some(DerivedDeclarator::KRFunction(_))
    ) && matches!(d.kind.node, DeclaratorKind::Identifier(_))
}

impl VisitMut for Renamer<'_> {
    fn expr(&mut self, e: &mut Node<Expression>) {
        if let Expression::Identifier(i) = &mut e.node {
            if let Some(n) = self.lookup(&i.node.name) {
                i.node.name = n.clone();
            }
            return;
        }
        walk::walk_expr(self, e)
    }

    fn stmt(&mut self, s: &mut Node<Statement>) {
        match &mut s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for it in items {
                    walk::walk_block_item(self, it);
                }
                self.scopes.pop();
            }
            Statement::For(_) => {
                self.scopes.push(HashMap::new());
                walk::walk_stmt(self, s);
                self.scopes.pop();
            }
            _ => walk::walk_stmt(self, s),
        }
    }

    fn declaration(&mut self, d: &mut Node<Declaration>) {
        let keep = is_extern_or_typedef(&d.node);
        for s in &mut d.node.specifiers {
            if let DeclarationSpecifier::TypeSpecifier(t) = &mut s.node {
                walk::walk_type_specifier(self, t);
            }
        }
        for id in &mut d.node.declarators {
            // The initialiser is in the scope of the declared name (C11 6.2.1p7), but array
            // sizes in the declarator are not; rename the declarator's expressions first.
            walk::walk_declarator(self, &mut id.node.declarator);
            if !keep && !is_function_declarator(&id.node.declarator.node) {
                if let Some(ident) = declarator_name_mut(&mut id.node.declarator.node) {
                    let new = self.bind(&ident.name.clone());
                    ident.name = new;
                }
            }
            if let Some(i) = &mut id.node.initializer {
                walk::walk_initializer(self, i);
            }
        }
    }

    fn declarator(&mut self, d: &mut Node<Declarator>) {
        // Only expressions inside (array sizes, typeof); parameter names of prototypes stay.
        walk::walk_declarator(self, d)
    }

    fn label(&mut self, l: &mut Identifier) {
        let new = match self.labels.get(&l.name) {
            Some(n) => n.clone(),
            None => {
                let n = self.names.label(&format!("{}_", l.name));
                self.labels.insert(l.name.clone(), n.clone());
                n
            }
        };
        l.name = new;
    }
}
