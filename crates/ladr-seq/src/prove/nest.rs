//! Team nests (issue 31; `docs/decisions/static.md`, "Team blocks in loops"): a top-level
//! statement of `main` whose only thread creations are in team blocks
//! ([`super::worksharing::team_block`]) nested in compound statements and `while` loops —
//! an OpenMP region in a loop of `main` (`for (i = 0; i < n; i++) { #pragma omp parallel
//! for … }`, DRB053), or under an `if` whose branches are nests or create nothing; a team
//! block alone is the smallest nest. Every team is joined
//! inside its block, so the statements of the nest
//! outside its teams' create-to-join spans run alone when nothing ran before the nest, and
//! the threads live after it are those live before.

use super::worksharing::{team_block, TeamBlock};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A nest's parts: its team blocks' items, and whether each item of the nest (by address)
/// runs alone when nothing ran before the nest.
#[derive(Default)]
pub struct Nest<'s> {
    pub blocks: Vec<(&'s [Node<BlockItem>], TeamBlock)>,
    pub solo: HashMap<usize, bool>,
}

/// Does a piece of the program create a thread (a create or a call of a creator) or jump
/// (a label, `goto`, `return`, `break`, `continue`, `switch`)?
struct Creates<'c> {
    creators: &'c HashSet<String>,
    found: bool,
}

impl Visitor for Creates<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Call(c) = &e.node {
            let creating = match &c.node.callee.node {
                Expression::Identifier(i) => {
                    let n = i.node.name.as_str();
                    n == "pthread_create" || self.creators.contains(n)
                }
                // A call through a pointer may reach a creator.
                _ => true,
            };
            self.found |= creating;
        }
        Ok(Walk::Descend)
    }
    fn label(&mut self, _l: &Identifier) -> Result<(), Infallible> {
        self.found = true;
        Ok(())
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        self.found |= super::worksharing::jumps(&s.node);
        Ok(Walk::Descend)
    }
}

/// Does `walk` find no creation or jump in what it visits?
fn plain(creators: &HashSet<String>, walk: impl FnOnce(&mut Creates)) -> bool {
    let mut c = Creates {
        creators,
        found: false,
    };
    walk(&mut c);
    !c.found
}

fn plain_item(i: &Node<BlockItem>, creators: &HashSet<String>) -> bool {
    plain(creators, |c| {
        let _ = visit::block_item(c, i);
    })
}

fn plain_expr(e: &Node<Expression>, creators: &HashSet<String>) -> bool {
    plain(creators, |c| {
        let _ = visit::expr(c, e);
    })
}

/// `s` as a team nest (module doc, a team block alone too) with at least one team block;
/// `None` otherwise.
pub fn team_nest<'s>(s: &'s Node<Statement>, creators: &HashSet<String>) -> Option<Nest<'s>> {
    let mut nest = Nest::default();
    (walk(s, creators, &mut nest) && !nest.blocks.is_empty()).then_some(nest)
}

fn walk<'s>(s: &'s Node<Statement>, creators: &HashSet<String>, nest: &mut Nest<'s>) -> bool {
    if let Some(team) = team_block(s, creators) {
        let Statement::Compound(items) = &s.node else {
            return false;
        };
        for (j, i) in items.iter().enumerate() {
            nest.solo
                .insert(i as *const _ as usize, j < team.first || j > team.last);
        }
        nest.blocks.push((items, team));
        return true;
    }
    match &s.node {
        Statement::Compound(items) => items.iter().all(|i| {
            if plain_item(i, creators) {
                nest.solo.insert(i as *const _ as usize, true);
                return true;
            }
            nest.solo.insert(i as *const _ as usize, false);
            match &i.node {
                BlockItem::Statement(x) => walk(x, creators, nest),
                _ => false,
            }
        }),
        Statement::While(w) => {
            plain_expr(&w.node.expression, creators) && walk(&w.node.statement, creators, nest)
        }
        // A team under a test (`if (n >= 1) { #pragma omp parallel for … }`): either branch
        // is a nest or creates nothing.
        Statement::If(i) => {
            let branch = |b: &'s Node<Statement>, nest: &mut Nest<'s>| {
                plain(creators, |c| {
                    let _ = visit::stmt(c, b);
                }) || walk(b, creators, nest)
            };
            plain_expr(&i.node.condition, creators)
                && branch(&i.node.then_statement, nest)
                && i.node
                    .else_statement
                    .as_deref()
                    .is_none_or(|e| branch(e, nest))
        }
        _ => false,
    }
}
