//! Fresh blocks, part of the points-to by allocation site ([`super::heap`]).
//!
//! Blocks not yet published (`docs/decisions/static.md`): a local `p` is *fresh* after
//! `p = malloc(…)` (or `p = q` of a fresh `q`) until it is read other than as the pointer
//! of `*p`, `p->m`, `p[i]` — stored, passed on, returned, compared, its address or a
//! member's taken — when every fresh fact ends, or written. Every variable that holds a
//! fresh block is fresh, so an access through one touches a block no other thread can
//! reach: it races with nothing. A call passing fresh `p` to a parameter its function
//! reads only as such a pointer keeps `p` fresh, and the parameter is fresh in the callee
//! when every call made while threads may run passes it a fresh block (the entry meet).

use super::decls::VarId;
use super::heap::ALLOCATORS;
use super::scan::Scan;
use super::{Lock, Locks};
use lang_c::ast::*;
use lang_c::span::Node as Ast;

impl<'a> Scan<'_, 'a> {
    /// Can `v` hold a fresh block: an automatic local whose address is never taken.
    fn fresh_holder(&self, v: VarId) -> bool {
        let var = &self.decls.vars[v];
        var.automatic && !var.thread_local && !self.decls.escaped.contains(&v)
    }

    /// The fresh local `e` names, if it is one.
    fn fresh_local(&self, e: &Ast<Expression>) -> Option<VarId> {
        let Expression::Identifier(i) = &super::access::strip_casts(e).node else {
            return None;
        };
        let v = self.lookup(&i.node.name)?;
        self.state
            .as_ref()
            .is_some_and(|s| s.contains(&Lock::Fresh(v)))
            .then_some(v)
    }

    pub fn is_fresh(&self, e: &Ast<Expression>) -> bool {
        matches!(&e.node, Expression::Identifier(_)) && self.fresh_local(e).is_some()
    }

    /// `v` read: unless as a pointer followed or a kept copy, a fresh block it holds
    /// may leave it (every fresh fact ends), and a parameter `v` lets its block go.
    pub fn fresh_read(&mut self, v: VarId) {
        if self.deref_base == Some(v) || self.fresh_skip == Some(v) {
            return;
        }
        self.decls.fresh_leaks.insert(v);
        if self.fresh_copy == Some(v) {
            return;
        }
        if let Some(locks) = &mut self.state {
            if locks.contains(&Lock::Fresh(v)) {
                locks.retain(|l| !matches!(l, Lock::Fresh(_)));
            }
        }
    }

    /// `v` written: it holds another value.
    pub fn fresh_written(&mut self, v: VarId) {
        if let Some(locks) = &mut self.state {
            locks.remove(&Lock::Fresh(v));
        }
    }

    /// The base `p` of `p[i]` used as `mode`, read as a pointer followed (no leak) when
    /// the element is no array that would decay to an address inside the block.
    pub fn fresh_index_base(
        &self,
        base: &Ast<Expression>,
        mode: super::access::Mode,
    ) -> Option<VarId> {
        use super::access::Mode;
        let Expression::Identifier(i) = &base.node else {
            return None;
        };
        let v = self.lookup(&i.node.name)?;
        let keeps = match mode {
            Mode::Write | Mode::Both => true,
            Mode::Read => self.decls.vars[v].scalar_pointee,
            Mode::Address | Mode::Sync => false,
        };
        keeps.then_some(v)
    }

    /// `lhs = rhs`: the copy's fresh source, and the local made fresh.
    pub fn fresh_assignment(
        &self,
        lhs: &Ast<Expression>,
        rhs: &Ast<Expression>,
    ) -> (Option<VarId>, Option<VarId>) {
        let Expression::Identifier(i) = &lhs.node else {
            return (None, None);
        };
        let Some(v) = self.lookup(&i.node.name).filter(|&v| self.fresh_holder(v)) else {
            return (None, None);
        };
        let r = super::access::strip_casts(rhs);
        if let Expression::Call(c) = &r.node {
            let allocator = matches!(&c.node.callee.node, Expression::Identifier(f)
                if ALLOCATORS.contains(&f.node.name.as_str())
                    && self.lookup(&f.node.name).is_none()
                    && !self.decls.bodies.contains_key(&f.node.name));
            return (None, allocator.then_some(v));
        }
        match self.fresh_local(r) {
            Some(t) if matches!(r.node, Expression::Identifier(_)) => (Some(t), Some(v)),
            _ => (None, None),
        }
    }

    /// The arguments of a call of `function` that are fresh locals handed to a parameter
    /// that only ever follows them: position, local.
    pub fn fresh_arguments(&self, function: &str, args: &[Ast<Expression>]) -> Vec<(usize, VarId)> {
        let mut out = vec![];
        for (k, a) in args.iter().enumerate() {
            let Some(v) = self.fresh_local(a) else {
                continue;
            };
            let Some(&p) = self.decls.params.get(&(function.to_string(), k)) else {
                continue;
            };
            if self.fresh_holder(p) && !self.decls.fresh_leaks.contains(&p) {
                out.push((k, v));
            }
        }
        out
    }

    /// A function's entry lockset: its fresh parameters as fresh locals.
    pub fn fresh_entry(&self, function: &str, entry: &Locks) -> Locks {
        let mut out = Locks::new();
        for l in entry {
            match l {
                Lock::FreshParam(k) => {
                    let p = self.decls.params.get(&(function.to_string(), *k)).copied();
                    if let Some(p) = p.filter(|&p| self.fresh_holder(p)) {
                        out.insert(Lock::Fresh(p));
                    }
                }
                Lock::Fresh(_) => {}
                _ => {
                    out.insert(l.clone());
                }
            }
        }
        out
    }
}
