//! Rule 1 of `racefree`: `main`'s statements where no other thread can run are made plain
//! (but the structural ones), the labels of each slot numbered again and `main`'s first
//! statements merged into its label 0 again when that instruments nothing more; and the
//! undoing of that merge before the analysis.

use super::flow::State;
use crate::normal_form::is_atomic_section;
use crate::passes::visible;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use ladr_ir::analysis::Vars;
use ladr_ir::program::{Item, SlotCode};
use lang_c::ast::*;
use lang_c::span::Node;

/// Rule 1 for one slot: its visible statements in a solo stretch of `main` that need not be
/// visible ([`structural`]) are made plain; the first and the last one, atomic sections and
/// unreachable ones are left as they are.
pub(super) fn make_solo_statements_plain(
    slot: usize,
    c: &mut SlotCode,
    before: &[Option<State>],
    parents: &[Option<usize>],
) {
    let last = c.size.saturating_sub(1);
    for (it, state) in c.items.iter_mut().zip(before) {
        let Item::Visible {
            label,
            stmt,
            atomic: false,
        } = it
        else {
            continue;
        };
        if *label == 0 || *label == last {
            continue;
        }
        let Some(state) = state else {
            continue; // unreachable: left as it is
        };
        // Outside `main`'s solo stretches a statement keeps the visibility `visible`
        // gave it, also when it touches only race-free objects: its accesses are not
        // instrumented, but without its label the stretches between labels grow and
        // take in the jumps around them, and CBMC's symex merges the guards of such
        // crossing jumps into exponentially growing expressions (weaver's
        // chl-nzb-file-symm: 22 s of symex with those labels gone, 1 s with them).
        let keep =
            !(slot == 0 && state.solo(parents)) || structural(stmt, state.created.is_empty());
        if !keep {
            let stmt = std::mem::replace(stmt, empty_stmt(stmt.span));
            *it = Item::Plain(stmt);
        }
    }
}

/// Numbers a slot's visible statements again, from 0, in order.
pub(super) fn number_labels(c: &mut SlotCode) {
    let mut next = 0;
    for it in &mut c.items {
        if let Item::Visible { label, .. } = it {
            *label = next;
            next += 1;
        }
    }
    c.size = next;
}

/// `visible::merge_first` again: always for a thread, for `main` when that instruments
/// nothing more.
pub(super) fn merge_first_again(slot: usize, c: &mut SlotCode, vars: &Vars) {
    // `main`'s merge again when that instruments nothing more: none of the statements
    // merged accesses a shared object.
    let merged_quiet = c
        .items
        .iter()
        .skip(1)
        .take_while(|i| !matches!(i, Item::Visible { .. } | Item::Label(..)))
        .all(|i| match i {
            Item::Plain(s) => !visible::may_switch(vars, s),
            _ => true,
        });
    if slot > 0 || merged_quiet {
        visible::merge_first(c);
    }
}
/// `[0: { plain…; s }]` → `[0: ;] plain… [1: s]`: `visible::merge_first` undone.
pub(super) fn unmerge_first(c: &mut SlotCode) {
    let Some(Item::Visible {
        label: 0,
        stmt,
        atomic: false,
    }) = c.items.first()
    else {
        return;
    };
    let Statement::Compound(body) = &stmt.node else {
        return;
    };
    let mut parts = vec![];
    for it in body {
        match &it.node {
            BlockItem::Statement(s) => parts.push(s.clone()),
            _ => return,
        }
    }
    let Some(last) = parts.pop() else {
        return;
    };
    let span = stmt.span;
    let mut items = vec![Item::Visible {
        label: 0,
        stmt: empty_stmt(span),
        atomic: false,
    }];
    items.extend(parts.into_iter().map(Item::Plain));
    items.push(Item::Visible {
        label: 1,
        stmt: last,
        atomic: false,
    });
    for it in &mut c.items[1..] {
        if let Item::Visible { label, .. } = it {
            *label += 1;
        }
    }
    c.items.splice(0..1, items);
    c.size += 1;
}

/// Does a statement stay visible in a solo stretch of `main`: a call of the pthread model,
/// an assumption (either may block), an atomic section? Before the first `pthread_create`
/// (`unborn`: no thread exists on any path) neither a model call (but the first
/// `pthread_create` itself) nor an assumption need be: a path they block or end has no
/// thread, so no race, and no access before any thread is instrumented, so no release or
/// acquire there matters to one (a set-up loop's 256 `pthread_mutex_init`s were 256
/// labels), while after the joins they must stay visible,
/// for `main`'s context may end before them and keep a race found earlier. (A label before each of them cuts the
/// solo stretch into pieces whose jumps cross one another, and CBMC's symbolic execution
/// merges their guards into expressions that grow exponentially: the weaver tasks that
/// allocate arrays in `main` took 35 s of symex instead of 1 s.)
fn structural(s: &Node<Statement>, unborn: bool) -> bool {
    struct StaysVisible {
        unborn: bool,
    }
    impl Visitor for StaysVisible {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c) => match callee_name(&c.node) {
                    Some(n)
                        if n == abi::ATOMIC_BEGIN
                            || (visible::is_model_call(n)
                                && (!self.unborn
                                    || abi::modelled_function(n) == "pthread_create"))
                            || (n == abi::ASSUME && !self.unborn) =>
                    {
                        Err(())
                    }
                    _ => Ok(Walk::Descend),
                },
                _ => Ok(Walk::Descend),
            }
        }
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::Compound(items) if is_atomic_section(items) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::stmt(&mut StaysVisible { unborn }, s).is_err()
}
