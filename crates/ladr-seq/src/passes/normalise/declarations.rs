//! Local declarations: split one declarator each, initialisers turned into assignments at
//! the same place (constant array items stay), N4's start of an uninitialised local, and
//! the side effects hoisted out of array sizes and initialiser lists.

use super::{stmt_item, Items, Normaliser};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::query;
use ladr_c::syntax::walk::has_side_effect;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Normaliser<'_> {
    /// A local declaration as block items: one declaration per declarator (an anonymous
    /// struct or enum type keeps its declarators together), each followed by the
    /// assignment of its initialiser or N4's start of an uninitialised automatic local.
    pub(super) fn declaration(&mut self, d: Node<Declaration>) -> Result<Items> {
        let span = d.span;
        let decl = d.node;
        let keep_whole = is_typedef(&decl)
            || has_storage(&decl, StorageClassSpecifier::Extern)
            || decl.declarators.is_empty();
        if keep_whole {
            return Ok(vec![decl_item(node(decl, span))]);
        }
        let is_static = has_storage(&decl, StorageClassSpecifier::Static)
            || has_storage(&decl, StorageClassSpecifier::ThreadLocal);
        let defines_anonymous = decl
            .specifiers
            .iter()
            .any(|s| defines_anonymous_type(&s.node));
        let mut out = vec![];
        let mut after = vec![];
        let mut first = true;
        let count = decl.declarators.len();
        let mut group = vec![];
        for id in decl.declarators {
            let mut specs = decl.specifiers.clone();
            if !first {
                strip_type_bodies(&mut specs);
            }
            first = false;
            let id_span = id.span;
            let mut id = id.node;
            let is_function =
                matches!(
                    id.declarator.node.derived.first().map(|x| &x.node),
                    Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_))
                ) && !matches!(id.declarator.node.kind.node, DeclaratorKind::Declarator(_));
            self.hoist_array_sizes(&mut id.declarator, &mut out)?;
            let name = declarator_name(&id.declarator.node).map(str::to_string);
            let mut stmts = vec![];
            if !is_static && !is_function {
                if let Some(name) = &name {
                    let nspan = id.declarator.span;
                    specs.retain(|s| {
                        !matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Register)
                    });
                    match id.initializer.take() {
                        // An uninitialised pointer (`T *p`, or a pointer typedef's `t p`)
                        // starts as a null pointer, not as any value: a defined program writes it before reading it, so no
                        // execution changes, while a pointer that may point to any object
                        // makes every access through it costly for CBMC (and its shadow
                        // memory may crash on one).
                        None if is_pointer_declarator(&id.declarator.node)
                            || query::declares_pointer(
                                &id.declarator.node,
                                &type_specifiers(&specs),
                                self.pointer_typedefs,
                            ) =>
                        {
                            stmts.push(stmt_item(expr_stmt(assign(
                                ident(name, nspan),
                                int(0, nspan),
                                nspan,
                            ))));
                        }
                        None => {
                            stmts.push(stmt_item(expr_stmt(call(
                                abi::HAVOC,
                                vec![addr(ident(name, nspan), nspan)],
                                nspan,
                            ))));
                        }
                        Some(init) => {
                            self.initialiser(init, name, nspan, &mut id, &mut specs, &mut stmts)?
                        }
                    }
                }
            }
            // Static locals keep their initialisers (constant ones, as C requires).
            let one = node(id, id_span);
            if defines_anonymous && count > 1 {
                group.push(one);
                after.extend(stmts);
            } else {
                out.push(decl_item(node(
                    Declaration {
                        specifiers: specs,
                        declarators: vec![one],
                    },
                    span,
                )));
                out.extend(stmts);
            }
        }
        if !group.is_empty() {
            out.push(decl_item(node(
                Declaration {
                    specifiers: decl.specifiers,
                    declarators: group,
                },
                span,
            )));
            out.extend(after);
        }
        Ok(out)
    }

    /// The initialiser `init` of the automatic local `name` (declared by `id` with `specs`):
    /// an assignment after the declaration into `stmts`, or kept on a local array where it is
    /// constant (the rest assigned element by element, [`Self::array_list`]).
    fn initialiser(
        &mut self,
        init: Node<Initializer>,
        name: &str,
        nspan: Span,
        id: &mut InitDeclarator,
        specs: &mut Vec<Node<DeclarationSpecifier>>,
        stmts: &mut Items,
    ) -> Result<()> {
        let is_array = is_array_declarator(&id.declarator.node);
        let lv = ident(name, nspan);
        match init.node {
            Initializer::Expression(e) if is_array => {
                if has_side_effect(&e.node) {
                    return Err(Error::unsupported(
                        e.span,
                        "array initialised by an expression with side effects",
                    ));
                }
                id.initializer = Some(node(Initializer::Expression(e), init.span));
            }
            Initializer::Expression(e) => {
                strip_top_const(specs, &mut id.declarator.node);
                let v = self.value(*e, stmts)?;
                stmts.push(stmt_item(expr_stmt(assign(lv, v, init.span))));
            }
            Initializer::List(items) if is_array => {
                let dims = array_dims(&id.declarator.node);
                let kept = self.array_list(lv, items, dims, stmts)?;
                id.initializer = Some(node(Initializer::List(kept), init.span));
            }
            Initializer::List(items) => {
                strip_top_const(specs, &mut id.declarator.node);
                let items = self.init_items(items, stmts)?;
                let ty = type_name(&[typeof_expr(lv.clone(), nspan)], 0, nspan);
                let lit = node(
                    Expression::CompoundLiteral(Box::new(node(
                        CompoundLiteral {
                            type_name: ty,
                            initializer_list: items,
                        },
                        init.span,
                    ))),
                    init.span,
                );
                stmts.push(stmt_item(expr_stmt(assign(lv, lit, init.span))));
            }
        }
        Ok(())
    }

    /// Hoists side effects out of array sizes (VLAs) of a declarator.
    fn hoist_array_sizes(&mut self, d: &mut Node<Declarator>, pre: &mut Items) -> Result<()> {
        if let DeclaratorKind::Declarator(inner) = &mut d.node.kind.node {
            self.hoist_array_sizes(inner, pre)?;
        }
        for dd in &mut d.node.derived {
            if let DerivedDeclarator::Array(a) = &mut dd.node {
                if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                    &mut a.node.size
                {
                    if has_side_effect(&e.node) {
                        let v = std::mem::replace(&mut **e, int(0, Span::none()));
                        **e = self.value(v, pre)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A non-static local array with an initialiser list: constant items stay on the
    /// declaration, the others become `{0}` there plus an assignment `a[k] = v;`.
    fn array_list(
        &mut self,
        lv: Node<Expression>,
        items: Vec<Node<InitializerListItem>>,
        dims: usize,
        stmts: &mut Items,
    ) -> Result<Vec<Node<InitializerListItem>>> {
        let mut kept = vec![];
        let mut k: Option<u64> = Some(0);
        for mut it in items {
            let ispan = it.span;
            let mut path = lv.clone();
            if it.node.designation.is_empty() {
                match k {
                    Some(i) => path = index(path, int(i, ispan), ispan),
                    None => {
                        if !self.init_is_constant(&it.node.initializer.node) {
                            return Err(Error::unsupported(
                                ispan,
                                "non-constant array initialiser after a non-literal designator",
                            ));
                        }
                    }
                }
            } else {
                for (n, d) in it.node.designation.iter().enumerate() {
                    match &d.node {
                        Designator::Index(e) => {
                            if n == 0 {
                                k = constant::int_literal(&e.node);
                            }
                            path = index(path, e.clone(), ispan);
                        }
                        Designator::Member(m) => path = member(path, &m.node.name, false, ispan),
                        Designator::Range(_) => {
                            if !self.init_is_constant(&it.node.initializer.node) {
                                return Err(Error::unsupported(
                                    ispan,
                                    "non-constant initialiser of a designated range",
                                ));
                            }
                            k = None;
                        }
                    }
                }
            }
            k = k.map(|i| i + 1);
            if self.init_is_constant(&it.node.initializer.node) {
                kept.push(it);
                continue;
            }
            let init = std::mem::replace(
                &mut *it.node.initializer,
                node(Initializer::List(vec![]), ispan),
            );
            let depth = it.node.designation.len().max(1);
            let init = match init.node {
                // a row of a multi-dimensional array: element by element
                Initializer::List(sub) if dims > depth && depth == 1 => {
                    let sub = self.array_list(path, sub, dims - 1, stmts)?;
                    *it.node.initializer = node(Initializer::List(sub), ispan);
                    kept.push(it);
                    continue;
                }
                Initializer::Expression(_) if dims > depth => {
                    return Err(Error::unsupported(
                        ispan,
                        "non-constant initialiser of a multi-dimensional array without braces",
                    ))
                }
                other => node(other, init.span),
            };
            let zero = node(
                InitializerListItem {
                    designation: vec![],
                    initializer: Box::new(node(
                        Initializer::Expression(Box::new(int(0, ispan))),
                        ispan,
                    )),
                },
                ispan,
            );
            *it.node.initializer = node(Initializer::List(vec![zero]), ispan);
            kept.push(it);
            match init.node {
                Initializer::Expression(e) => {
                    let v = self.value(*e, stmts)?;
                    stmts.push(stmt_item(expr_stmt(assign(path, v, ispan))));
                }
                Initializer::List(sub) => {
                    let sub = self.init_items(sub, stmts)?;
                    let ty = type_name(&[typeof_expr(path.clone(), ispan)], 0, ispan);
                    let lit = node(
                        Expression::CompoundLiteral(Box::new(node(
                            CompoundLiteral {
                                type_name: ty,
                                initializer_list: sub,
                            },
                            ispan,
                        ))),
                        ispan,
                    );
                    stmts.push(stmt_item(expr_stmt(assign(path, lit, ispan))));
                }
            }
        }
        Ok(kept)
    }

    /// Hoists the side effects out of every item of an initialiser list.
    pub(super) fn init_items(
        &mut self,
        items: Vec<Node<InitializerListItem>>,
        pre: &mut Items,
    ) -> Result<Vec<Node<InitializerListItem>>> {
        let mut out = vec![];
        for mut it in items {
            let init = std::mem::replace(
                &mut *it.node.initializer,
                node(Initializer::List(vec![]), it.span),
            );
            let ispan = init.span;
            *it.node.initializer = match init.node {
                Initializer::Expression(e) => node(
                    Initializer::Expression(Box::new(self.value(*e, pre)?)),
                    ispan,
                ),
                Initializer::List(l) => node(Initializer::List(self.init_items(l, pre)?), ispan),
            };
            out.push(it);
        }
        Ok(out)
    }

    fn init_is_constant(&self, i: &Initializer) -> bool {
        match i {
            Initializer::Expression(e) => self.is_constant(&e.node),
            Initializer::List(items) => items
                .iter()
                .all(|it| self.init_is_constant(&it.node.initializer.node)),
        }
    }

    /// A constant an initialiser may hold ([`constant::is_initializer_constant`]): locals
    /// here and global objects are the names that are not constants.
    fn is_constant(&self, e: &Expression) -> bool {
        constant::is_initializer_constant(e, &|n| self.locals.contains(n), &|n| {
            self.globals.contains(n)
        })
    }
}

/// Drops a top-level `const` so that the variable can be assigned.
fn strip_top_const(specs: &mut Vec<Node<DeclarationSpecifier>>, d: &mut Declarator) {
    let is_const = |q: &TypeQualifier| *q == TypeQualifier::Const;
    let top_pointer = d
        .derived
        .iter_mut()
        .rev()
        .find(|x| matches!(x.node, DerivedDeclarator::Pointer(_)));
    match top_pointer {
        Some(p) if matches!(d.kind.node, DeclaratorKind::Identifier(_)) => {
            if let DerivedDeclarator::Pointer(qs) = &mut p.node {
                qs.retain(
                    |q| !matches!(&q.node, PointerQualifier::TypeQualifier(t) if is_const(&t.node)),
                );
            }
        }
        _ if matches!(d.kind.node, DeclaratorKind::Declarator(_)) => {
            // `int (*const fp)(int)`: the top level is the inner declarator
            if let DeclaratorKind::Declarator(inner) = &mut d.kind.node {
                strip_top_const(&mut vec![], &mut inner.node);
            }
        }
        Some(_) => {}
        None => specs.retain(
            |s| !matches!(&s.node, DeclarationSpecifier::TypeQualifier(t) if is_const(&t.node)),
        ),
    }
}

fn defines_anonymous_type(s: &DeclarationSpecifier) -> bool {
    match s {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::Struct(st) => {
                st.node.identifier.is_none() && st.node.declarations.is_some()
            }
            TypeSpecifier::Enum(en) => en.node.identifier.is_none(),
            _ => false,
        },
        _ => false,
    }
}

/// For the second and later declarators of a split declaration: `struct s {…}` → `struct s`.
fn strip_type_bodies(specs: &mut [Node<DeclarationSpecifier>]) {
    for s in specs {
        if let DeclarationSpecifier::TypeSpecifier(t) = &mut s.node {
            match &mut t.node {
                TypeSpecifier::Struct(st) if st.node.identifier.is_some() => {
                    st.node.declarations = None
                }
                TypeSpecifier::Enum(en) if en.node.identifier.is_some() => {
                    en.node.enumerators = vec![]
                }
                _ => {}
            }
        }
    }
}
