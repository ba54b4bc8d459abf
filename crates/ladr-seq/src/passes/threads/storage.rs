//! Thread storage (`_Thread_local`, `__thread`): one instance of each such object per
//! slot ([`ThreadStorage`]), the slot's code renamed to use its own, and the instances
//! declared at file scope.

use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, HashSet};
use std::convert::Infallible;

/// `_Thread_local` objects declared at file scope (`__thread` is read as `_Thread_local`;
/// `inline` has already hoisted `static _Thread_local` locals to file scope). Each thread has
/// its own instance, so each slot gets its own object: slot 0 (`main`) keeps the user's
/// object and name, slot k > 0 gets `__ladr_<n>_<name>` the first time its code names the
/// object (so `names::original_name` gives the user's name back for reports). A pointer to
/// a slot's instance still reaches that instance from other threads, as in C.
pub(super) struct ThreadStorage {
    vars: HashSet<String>,
    /// (slot > 0, user name) → that slot's copy.
    copies: BTreeMap<(usize, String), String>,
}

fn is_thread_storage(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::ThreadLocal)
    })
}

fn drop_thread_storage(d: &mut Declaration) {
    d.specifiers.retain(|s| {
        !matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::ThreadLocal)
    });
}

impl ThreadStorage {
    pub(super) fn new(unit: &[Node<ExternalDeclaration>]) -> ThreadStorage {
        let mut vars = HashSet::new();
        for ext in unit {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                if is_thread_storage(&d.node) {
                    vars.extend(d.node.declarators.iter().filter_map(|id| {
                        declarator_name(&id.node.declarator.node).map(str::to_string)
                    }));
                }
            }
        }
        ThreadStorage {
            vars,
            copies: BTreeMap::new(),
        }
    }

    /// Makes slot `slot`'s code use its own instances. Every identifier in a slot body that
    /// names a thread-storage object means the file-scope one: `clone_routine` renamed every
    /// local apart, and block-scope `extern` declarations of such objects are renamed here.
    pub(super) fn rename(&mut self, names: &mut Names, slot: usize, body: &mut Node<Statement>) {
        struct ThreadStorageRenamer<'a> {
            ts: &'a mut ThreadStorage,
            names: &'a mut Names,
            slot: usize,
        }
        impl ThreadStorageRenamer<'_> {
            fn copy(&mut self, name: &str) -> String {
                if self.slot == 0 {
                    return name.to_string();
                }
                let names = &mut *self.names;
                self.ts
                    .copies
                    .entry((self.slot, name.to_string()))
                    .or_insert_with(|| names.local(name))
                    .clone()
            }
        }
        impl VisitorMut for ThreadStorageRenamer<'_> {
            type Error = Infallible;
            fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
                if let Expression::Identifier(i) = &mut e.node {
                    if self.ts.vars.contains(&i.node.name) {
                        i.node.name = self.copy(&i.node.name);
                    }
                }
                Ok(Walk::Descend)
            }
            fn declaration(
                &mut self,
                d: &mut Node<Declaration>,
            ) -> std::result::Result<Walk, Infallible> {
                if has_storage(&d.node, StorageClassSpecifier::Extern) {
                    let mut any = false;
                    for id in &mut d.node.declarators {
                        if let Some(i) = declarator_name_mut(&mut id.node.declarator.node) {
                            if self.ts.vars.contains(&i.name) {
                                i.name = self.copy(&i.name.clone());
                                any = true;
                            }
                        }
                    }
                    if any {
                        // It now names a plain object (declared at file scope below).
                        drop_thread_storage(&mut d.node);
                    }
                }
                Ok(Walk::Descend)
            }
        }
        if self.vars.is_empty() {
            return;
        }
        let mut r = ThreadStorageRenamer {
            ts: self,
            names,
            slot,
        };
        let Ok(()) = visit_mut::stmt(&mut r, body);
    }

    /// Every instance: the user's objects (slot 0) and the slots' copies.
    pub(super) fn instances(&self) -> impl Iterator<Item = String> + '_ {
        self.vars.iter().chain(self.copies.values()).cloned()
    }

    /// The file-scope declarations with each thread-storage declaration replaced by slot 0's
    /// (the same without `_Thread_local`) followed by the slots' copies, one declaration
    /// each: `[static|extern] __typeof__(name) __ladr_<n>_name [= init];` (`__typeof__`
    /// names the type even when the original declaration defines a struct).
    pub(super) fn declare_copies(
        &self,
        unit: Vec<Node<ExternalDeclaration>>,
    ) -> Vec<Node<ExternalDeclaration>> {
        let mut out = vec![];
        for mut ext in unit {
            let ExternalDeclaration::Declaration(d) = &mut ext.node else {
                out.push(ext);
                continue;
            };
            if !is_thread_storage(&d.node) {
                out.push(ext);
                continue;
            }
            drop_thread_storage(&mut d.node);
            let d = d.clone();
            out.push(ext);
            let keep: Vec<Node<DeclarationSpecifier>> = d
                .node
                .specifiers
                .iter()
                .filter(|s| {
                    matches!(
                        s.node,
                        DeclarationSpecifier::StorageClass(_)
                            | DeclarationSpecifier::Alignment(_)
                            | DeclarationSpecifier::Extension(_)
                    )
                })
                .cloned()
                .collect();
            for ((_, orig), copy) in &self.copies {
                for init_decl in &d.node.declarators {
                    let decl = &init_decl.node.declarator;
                    if declarator_name(&decl.node) != Some(orig.as_str()) {
                        continue;
                    }
                    let span = init_decl.span;
                    let mut specifiers = keep.clone();
                    specifiers.push(spec(typeof_expr(ident(orig, span), span), span));
                    let declarator = node(
                        Declarator {
                            kind: node(DeclaratorKind::Identifier(id(copy, span)), span),
                            derived: vec![],
                            extensions: decl.node.extensions.clone(),
                        },
                        decl.span,
                    );
                    let copy_decl = Declaration {
                        specifiers,
                        declarators: vec![node(
                            InitDeclarator {
                                declarator,
                                initializer: init_decl.node.initializer.clone(),
                            },
                            span,
                        )],
                    };
                    out.push(node(
                        ExternalDeclaration::Declaration(node(copy_decl, d.span)),
                        d.span,
                    ));
                }
            }
        }
        out
    }
}
