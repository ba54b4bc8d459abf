//! The body copier: a fresh copy of a piece of code (an inlined callee, a loop iteration, a
//! thread routine's body for one slot), renamed so that it can stand beside other copies.
//!
//! ```text
//! { int x = 1; L: x++; goto L; return x; }
//!   ──▶  (returns → `r = …; goto end;`, labels and locals renamed)
//! { int __ladr_4_x = 1; __ladr_L5: __ladr_4_x++; goto __ladr_L5;
//!   { r = __ladr_4_x; goto end; } }
//! ```
//!
//! * Locals are renamed with [`Names::local`] following C's block scopes (a local shadowing
//!   a global renames only the uses it shadows; an initialiser sees the name it
//!   initialises, array sizes in its declarator do not). Which locals: [`Rename`].
//!   `extern` and `typedef` declarations and function prototypes keep their names.
//!   Parameters are bound with [`Copier::param`] in the outermost scope, which the body's
//!   own block shares ([`Copier::body`]).
//! * Labels: those in [`Copier::labels`] (see [`Copier::fresh_labels`]) are renamed, and with
//!   [`Copier::labels_on_demand`] every other label too, the first time it is seen
//!   (`L` → `__ladr_L_<n>`). [`Copier::gotos`] overrides the target of some gotos.
//! * With [`Copier::returns`], `return e;` becomes `{ r = e; goto end; }`.
//! * With [`Rename::StaticsAnd`], `static` locals are renamed and taken out of the code
//!   into [`Copier::hoisted`] (to be declared at file scope).

use super::build::*;
use super::names::Names;
use super::walk::visit::{self, Visitor};
use super::walk::visit_mut::{self, VisitorMut};
use super::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// Which local declarations a [`Copier`] renames.
pub enum Rename {
    /// Every automatic local (statics keep their name).
    All,
    /// Statics (hoisted out) and locals whose name is in the set.
    StaticsAnd(HashSet<String>),
    /// No local: only the names bound with [`Copier::bind`] (which locals shadow).
    None,
    /// The locals, static or not, whose name is in the set, renamed in place (nothing
    /// hoisted: `hygiene::rename_apart` after `threads`, where a slot may keep a static
    /// local whose type cannot be written at file scope, `__typeof__(({ … }))`).
    Only(HashSet<String>),
}

/// What becomes of `goto L` for one label L.
pub enum GotoTo {
    Label(String),
    /// `__CPROVER_assume(0);`, its span recorded in [`Copier::cuts`].
    Cut,
}

/// Copies code; see the module header. Walk the copy with [`Copier::stmt`] or
/// [`Copier::body`].
pub struct Copier<'a> {
    pub names: &'a mut Names,
    pub rename: Rename,
    scopes: Vec<HashMap<String, String>>,
    /// Label definitions and gotos renamed.
    pub labels: HashMap<String, String>,
    /// Whether a label not in `labels` gets a fresh name when first seen.
    pub labels_on_demand: bool,
    /// Overrides for gotos only (checked before `labels`).
    pub gotos: HashMap<String, GotoTo>,
    /// `return` → `result = e; goto end;` with (result, end).
    pub returns: Option<(Option<String>, String)>,
    /// Whether a `return` was rewritten (so `end` is needed).
    pub used_end: bool,
    /// Statics taken out of the code (with `Rename::StaticsAnd`).
    pub hoisted: Vec<Node<Declaration>>,
    /// Gotos replaced by [`GotoTo::Cut`].
    pub cuts: Vec<Span>,
    /// Every (original, new) pair of renamed locals and parameters, in order.
    pub renamed: Vec<(String, String)>,
}

impl<'a> Copier<'a> {
    pub fn new(names: &'a mut Names, rename: Rename) -> Copier<'a> {
        Copier {
            names,
            rename,
            scopes: vec![HashMap::new()],
            labels: HashMap::new(),
            labels_on_demand: false,
            gotos: HashMap::new(),
            returns: None,
            used_end: false,
            hoisted: vec![],
            cuts: vec![],
            renamed: vec![],
        }
    }

    /// Binds parameter (or outer local) `orig` to a fresh name in the outermost scope.
    pub fn param(&mut self, orig: &str) -> String {
        let new = self.names.local(orig);
        self.scopes[0].insert(orig.to_string(), new.clone());
        self.renamed.push((orig.to_string(), new.clone()));
        new
    }

    /// Binds `orig` to `new` in the innermost scope (file-scope names renamed by the
    /// linker; a parameter bound to itself, so that it shadows them).
    pub fn bind(&mut self, orig: &str, new: &str) {
        if let Some(top) = self.scopes.last_mut() {
            top.insert(orig.to_string(), new.to_string());
        }
    }

    /// Opens a scope (a function's parameters) for [`Copier::bind`].
    pub fn open_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    /// Closes the scope opened last.
    pub fn close_scope(&mut self) {
        self.scopes.pop();
    }

    /// The new name of parameter `orig` (outermost scope).
    pub fn outer(&self, orig: &str) -> Option<&str> {
        self.scopes[0].get(orig).map(|s| s.as_str())
    }

    /// Gives every label defined in `s` a fresh name `__ladr_L<n>` now.
    pub fn fresh_labels(&mut self, s: &Statement) {
        for l in labels_defined(s) {
            let n = self.names.label("L");
            self.labels.insert(l, n);
        }
    }

    /// Copies a statement.
    pub fn stmt(&mut self, s: &mut Node<Statement>) {
        let Ok(()) = visit_mut::stmt(self, s);
    }

    /// Copies a function body: its outermost block shares the parameters' scope.
    pub fn body(&mut self, s: &mut Node<Statement>) {
        match &mut s.node {
            Statement::Compound(items) => self.items_in(items),
            _ => self.stmt(s),
        }
    }

    /// Copies a block's items in a new scope; hoisted declarations are removed from it.
    pub fn items(&mut self, items: &mut Vec<Node<BlockItem>>) {
        self.scopes.push(HashMap::new());
        self.items_in(items);
        self.scopes.pop();
    }

    /// Copies items in the current innermost scope.
    fn items_in(&mut self, items: &mut Vec<Node<BlockItem>>) {
        let old = std::mem::take(items);
        for mut it in old {
            let before = self.hoisted.len();
            let Ok(()) = visit_mut::block_item(self, &mut it);
            if self.hoisted.len() > before && matches!(it.node, BlockItem::Declaration(_)) {
                continue;
            }
            items.push(it);
        }
    }

    fn lookup(&self, name: &str) -> Option<&String> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn label_name(&mut self, l: &str) -> Option<String> {
        if let Some(t) = self.labels.get(l) {
            return Some(t.clone());
        }
        if !self.labels_on_demand {
            return None;
        }
        let n = self.names.label(&format!("{l}_"));
        self.labels.insert(l.to_string(), n.clone());
        Some(n)
    }
}

impl VisitorMut for Copier<'_> {
    type Error = Infallible;

    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Identifier(i) = &mut e.node {
            if let Some(n) = self.lookup(&i.node.name) {
                i.node.name = n.clone();
            }
        }
        Ok(Walk::Descend)
    }

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Infallible> {
        match &mut s.node {
            Statement::Compound(items) => self.items(items),
            Statement::For(_) => {
                self.scopes.push(HashMap::new());
                visit_mut::stmt_children(self, &mut s.node)?;
                self.scopes.pop();
            }
            Statement::Goto(l) => match self.gotos.get(&l.node.name) {
                Some(GotoTo::Label(t)) => l.node.name = t.clone(),
                Some(GotoTo::Cut) => {
                    self.cuts.push(s.span);
                    *s = assume(int(0, s.span), s.span);
                }
                None => {
                    if let Some(t) = self.label_name(&l.node.name) {
                        l.node.name = t;
                    }
                }
            },
            Statement::Return(e) if self.returns.is_some() => {
                let span = s.span;
                let (res, end) = self.returns.clone().unwrap_or_default();
                let mut stmts = vec![];
                if let Some(mut e) = e.take() {
                    visit_mut::expr(self, &mut e)?;
                    match res {
                        Some(r) => stmts.push(expr_stmt(assign(ident(&r, span), *e, span))),
                        None => stmts.push(expr_stmt(*e)),
                    }
                }
                stmts.push(goto(&end, span));
                self.used_end = true;
                *s = block_of(stmts, span);
            }
            _ => return Ok(Walk::Descend),
        }
        Ok(Walk::Skip)
    }

    fn label(&mut self, l: &mut Identifier) -> Result<(), Infallible> {
        if let Some(t) = self.label_name(&l.name) {
            l.name = t;
        }
        Ok(())
    }

    fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk, Infallible> {
        let storage = storage_of(&d.node.specifiers);
        if storage.contains(&StorageClassSpecifier::Typedef)
            || storage.contains(&StorageClassSpecifier::Extern)
        {
            return Ok(Walk::Descend);
        }
        let is_static = storage.contains(&StorageClassSpecifier::Static);
        for s in &mut d.node.specifiers {
            visit_mut::decl_specifier(self, s)?;
        }
        let mut renamed = false;
        for id in &mut d.node.declarators {
            // The initialiser is in the scope of the declared name (C11 6.2.1p7), array
            // sizes in the declarator are not: walk the declarator's expressions first.
            visit_mut::declarator(self, &mut id.node.declarator)?;
            let decl = &mut id.node.declarator.node;
            if !is_function_declarator(decl) {
                if let Some(name) = declarator_name_mut(decl) {
                    let rename = match &self.rename {
                        Rename::All => !is_static,
                        Rename::StaticsAnd(set) => is_static || set.contains(&name.name),
                        Rename::None => false,
                        Rename::Only(set) => set.contains(&name.name),
                    };
                    if !rename {
                        // Not renamed, the local still hides an outer name bound here.
                        if self.lookup(&name.name).is_some() {
                            let keep = name.name.clone();
                            self.bind(&keep, &keep);
                        }
                    } else {
                        let n = self.names.local(&name.name);
                        if let Some(top) = self.scopes.last_mut() {
                            top.insert(name.name.clone(), n.clone());
                        }
                        self.renamed.push((name.name.clone(), n.clone()));
                        name.name = n;
                        renamed |= is_static;
                    }
                }
            }
            if let Some(i) = &mut id.node.initializer {
                visit_mut::initializer(self, i)?;
            }
        }
        if renamed && matches!(self.rename, Rename::StaticsAnd(_)) {
            self.hoisted.push(d.clone());
        }
        Ok(Walk::Skip)
    }
}

/// Labels defined anywhere in `s`, in order.
pub fn labels_defined(s: &Statement) -> Vec<String> {
    struct LabelsDefined(Vec<String>);
    impl LabelsDefined {
        fn defines(&mut self, s: &Statement) {
            if let Statement::Labeled(l) = s {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.0.push(i.node.name.clone());
                }
            }
        }
    }
    impl Visitor for LabelsDefined {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            self.defines(&s.node);
            Ok(Walk::Descend)
        }
        fn expr(&mut self, _e: &Node<Expression>) -> Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut l = LabelsDefined(vec![]);
    l.defines(s);
    let Ok(()) = visit::stmt_children(&mut l, s);
    l.0
}
