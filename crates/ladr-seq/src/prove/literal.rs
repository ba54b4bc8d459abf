//! Compound literals in the proof. `normalise` makes every braced initialiser of a local
//! `x = (__typeof__(x)){…}`. Read as a value (copied, its unnamed object never reached
//! again), a literal whose type is surely no array is the reads of its initialisers
//! (`access.rs`), and its value for the points-to holds what they give, as a declaration's
//! initialiser does its variable (`heap_init`). Anything else (`&(T){…}`, an array literal,
//! which decays to its address, a typedef'd type) gives up.

use super::decls::Tri;
use super::heap::NodeId;
use super::scan::Scan;
use lang_c::ast::*;
use lang_c::span::Node as Ast;

impl<'a> Scan<'_, 'a> {
    /// Is a compound literal of type `t`, read, a copied value? Only for a type that is
    /// surely no array: a struct or union, integer keywords, `float`, `double`, or
    /// `__typeof__(v)` of a variable that is no array (a typedef name or a declarator may
    /// be one).
    pub(super) fn copied_literal(&self, t: &TypeName) -> bool {
        if t.declarator.is_some() {
            return false;
        }
        t.specifiers.iter().all(|s| match &s.node {
            SpecifierQualifier::TypeQualifier(_) => true,
            SpecifierQualifier::Extension(_) => false,
            SpecifierQualifier::TypeSpecifier(ts) => match &ts.node {
                TypeSpecifier::Struct(_) => true,
                TypeSpecifier::TypeOf(of) => match &of.node {
                    TypeOf::Expression(e) => match &e.node {
                        Expression::Identifier(i) => self
                            .lookup(&i.node.name)
                            .is_some_and(|v| self.decls.vars[v].array == Tri::No),
                        _ => false,
                    },
                    TypeOf::Type(_) => false,
                },
                x => {
                    ladr_c::syntax::build::is_integer_keyword(x)
                        || matches!(x, TypeSpecifier::Float | TypeSpecifier::Double)
                }
            },
        })
    }

    /// The points-to value of the compound literal `e` (`c`): what its initialisers give.
    pub(super) fn literal_value(
        &mut self,
        e: &'a Ast<Expression>,
        c: &'a CompoundLiteral,
    ) -> NodeId {
        let t = self.temp(e, 9);
        for it in &c.initializer_list {
            self.init_into(t, &it.node.initializer.node);
        }
        t
    }
}
