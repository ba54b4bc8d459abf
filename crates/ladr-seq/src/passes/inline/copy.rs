//! The copy of a callee's body for one call: parameters as renamed locals assigned from the
//! arguments, the result temporary, `return` as an assignment and a `goto` to the end, the
//! variable arguments, the atomic section of an atomic function.

use super::call_sites::{with_dest, Dest, Inliner};
use super::declarations::{result_declaration, strip_top_qualifiers};
use super::functions::{arity_of, typedef_name_of};
use super::variadic::{mentions_va, mentions_va_arg, promoted, LowerVa};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

impl Inliner<'_> {
    /// The copy of `name`'s body (`def`) for one call with `args`: the parameters bound,
    /// the variable arguments evaluated, the result stored into `dest`; `section`: the body
    /// as an atomic section of its own.
    pub(super) fn copy_body(
        &mut self,
        name: &str,
        def: &Node<FunctionDefinition>,
        args: &[Node<Expression>],
        dest: Option<&Dest>,
        span: Span,
        section: bool,
    ) -> Result<Node<Statement>> {
        let decl = &def.node.declarator.node;
        let (params, nparams, variadic) = callee_parameters(name, decl, args.len(), span)?;
        let mut items = vec![];
        let mut c = Copier::new(self.names, Rename::All);
        for (p, a) in params.iter().take(nparams).zip(args) {
            let Some(pdecl) = &p.node.declarator else {
                continue; // unnamed parameter: the argument has no side effect
            };
            let Some(pname) = declarator_name(&pdecl.node) else {
                continue;
            };
            let new = c.param(pname);
            items.push(decl_item(param_declaration(
                &p.node,
                &new,
                &self.info.array_typedefs,
                p.span,
            )));
            items.push(item(expr_stmt(assign(
                ident(&new, a.span),
                a.clone(),
                a.span,
            ))));
        }
        let reads_va = variadic && mentions_va(&def.node.statement);
        let mut va_args = vec![];
        for a in args.iter().skip(nparams) {
            if reads_va {
                // `__typeof__(promoted(a)) v; v = a;`: the default argument promotions,
                // as passing `a` through `...` does.
                let v = c.names.local("va");
                items.push(decl_item(typeof_decl(&v, promoted(a), false, a.span)));
                items.push(item(expr_stmt(assign(
                    ident(&v, a.span),
                    a.clone(),
                    a.span,
                ))));
                va_args.push(v);
            } else {
                items.push(item(expr_stmt(a.clone())));
            }
        }
        let result = match result_declaration(&def.node, c.names) {
            Some((r, d)) => {
                items.push(decl_item(d));
                Some(r)
            }
            None => None,
        };
        let end = c.names.label("ret");
        c.returns = Some((result.clone(), end.clone()));
        c.fresh_labels(&def.node.statement.node);
        let mut body = def.node.statement.clone();
        // The body's block shares the scope of the parameters (as in C).
        c.body(&mut body);
        if reads_va {
            lower_va_operations(c.names, &va_args, &mut body, &mut items, span)?;
        } else if mentions_va_arg(&def.node.statement) {
            return Err(Error::unsupported(
                span,
                format!(
                    "inlining `{name}`, which reads a `va_list` it did not start with `va_start`"
                ),
            ));
        }
        let mut body_items = vec![];
        match body.node {
            Statement::Compound(b) => body_items.extend(b),
            _ => body_items.push(item(body)),
        }
        if c.used_end {
            body_items.push(item(labeled(&end, empty_stmt(span), span)));
        }
        if section {
            // The caller evaluates the arguments before the call and stores the result
            // after it: only the body is the atomic section (N5).
            body_items.insert(0, item(expr_stmt(call(abi::ATOMIC_BEGIN, vec![], span))));
            body_items.push(item(expr_stmt(call(abi::ATOMIC_END, vec![], span))));
            items.push(item(block(body_items, span)));
        } else {
            items.extend(body_items);
        }
        if let (Some(d), Some(r)) = (dest, &result) {
            items.push(item(expr_stmt(with_dest(ident(r, span), Some(d), span))));
        } else if dest.is_some() {
            return Err(Error::unsupported(
                span,
                format!("using the value of the void function `{name}`"),
            ));
        }
        Ok(block(items, span))
    }
}

/// The parameters of `def` as the local declarations a call with `nargs` arguments binds
/// (arrays and functions adjusted to pointers, storage classes and top qualifiers left
/// out), with their names, in order. `None` when such a call cannot bind them all: a
/// variadic or K&R-style function, an unnamed parameter, another number of arguments.
pub(crate) fn parameter_locals(
    def: &FunctionDefinition,
    nargs: usize,
    array_typedefs: &HashSet<String>,
) -> Option<Vec<(String, Node<Declaration>)>> {
    let span = def.declarator.span;
    let (params, nparams, variadic) =
        callee_parameters("", &def.declarator.node, nargs, span).ok()?;
    if variadic || nparams != nargs {
        return None;
    }
    params
        .iter()
        .take(nparams)
        .map(|p| {
            let d = p.node.declarator.as_ref()?;
            let name = declarator_name(&d.node)?;
            let decl = param_declaration(&p.node, name, array_typedefs, p.span);
            Some((name.to_string(), decl))
        })
        .collect()
}

/// The parameters of the callee `name` (declarator `decl`) a call with `nargs` arguments
/// binds, their count and whether the callee is variadic; K&R-style definitions with
/// parameters and calls with the wrong number of arguments are unsupported.
fn callee_parameters(
    name: &str,
    decl: &Declarator,
    nargs: usize,
    span: Span,
) -> Result<(Vec<Node<ParameterDeclaration>>, usize, bool)> {
    let mut variadic = false;
    let params: Vec<Node<ParameterDeclaration>> = match first_suffix(decl) {
        Some(DerivedDeclarator::Function(f)) => {
            if matches!(f.node.ellipsis, Ellipsis::Some) {
                // A variadic function is inlined like any other; the extra arguments
                // are evaluated in order into fresh locals, which its `va_arg`s read
                // (`lower_va_operations`). One that never reads them (a stub such as
                // `int dev_err(dev, fmt, ...) { return nondet(); }`) only evaluates them.
                variadic = true;
            }
            f.node.parameters.clone()
        }
        // `f()`: no parameters declared.
        Some(DerivedDeclarator::KRFunction(ids)) if ids.is_empty() => vec![],
        _ => {
            return Err(Error::unsupported(
                span,
                format!("inlining the K&R-style function `{name}`"),
            ))
        }
    };
    let (nparams, _) = arity_of(decl).unwrap_or((0, false));
    if nparams != nargs && !(variadic && nargs > nparams) {
        return Err(Error::unsupported(
            span,
            format!(
                "call of `{name}` with {} arguments (it has {nparams} parameters)",
                nargs
            ),
        ));
    }
    Ok((params, nparams, variadic))
}

/// Lowers the `va_*` operations of a copied variadic body onto the locals `va_args` holding
/// the call's variable arguments ([`LowerVa`]); the index local of each `va_list` is
/// declared at the front of `items`.
fn lower_va_operations(
    names: &mut Names,
    va_args: &[String],
    body: &mut Node<Statement>,
    items: &mut Vec<Node<BlockItem>>,
    span: Span,
) -> Result<()> {
    let mut lower = LowerVa {
        names,
        args: va_args,
        lists: HashMap::new(),
    };
    visit_mut::stmt(&mut lower, body)?;
    let mut lists: Vec<String> = lower.lists.into_values().collect();
    lists.sort();
    for l in lists.iter().rev() {
        let int_ty = [TypeSpecifier::Int];
        items.insert(
            0,
            decl_item(simple_decl(&int_ty, l, None, false, None, span)),
        );
    }
    Ok(())
}

/// `T name;` for a parameter: arrays and functions become pointers. A parameter declared
/// with an array typedef `T` (and no declarator of its own) is `__typeof__(*(T *)0 + 0)`,
/// the pointer its array decays to.
fn param_declaration(
    p: &ParameterDeclaration,
    name: &str,
    array_typedefs: &HashSet<String>,
    span: Span,
) -> Node<Declaration> {
    let mut specs: Vec<_> = p
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::StorageClass(_)))
        .cloned()
        .collect();
    let plain = p
        .declarator
        .as_ref()
        .is_none_or(|d| d.node.derived.is_empty());
    if plain && typedef_name_of(&specs).is_some_and(|t| array_typedefs.contains(t)) {
        let quals = specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => {
                Some(node(SpecifierQualifier::TypeSpecifier(t.clone()), s.span))
            }
            DeclarationSpecifier::TypeQualifier(q) => {
                Some(node(SpecifierQualifier::TypeQualifier(q.clone()), s.span))
            }
            _ => None,
        });
        let mut tn = type_name(&[], 1, span);
        tn.node.specifiers = quals.collect();
        let decayed = binop(
            BinaryOperator::Plus,
            deref(cast(tn, int(0, span), span), span),
            int(0, span),
            span,
        );
        specs = vec![spec(typeof_expr(decayed, span), span)];
        let d = Declarator {
            kind: node(DeclaratorKind::Identifier(id(name, span)), span),
            derived: vec![],
            extensions: vec![],
        };
        return declare(specs, node(d, span), None, span);
    }
    let mut d = p.declarator.clone().map(|d| d.node).unwrap_or(Declarator {
        kind: node(DeclaratorKind::Abstract, span),
        derived: vec![],
        extensions: vec![],
    });
    d.extensions.clear();
    {
        let inner = innermost_mut(&mut d);
        if let Some(n) = declarator_name_mut(inner) {
            n.name = name.to_string();
        }
        let npointers = inner
            .derived
            .iter()
            .take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
            .count();
        let adjust = inner.derived.get(npointers).is_some_and(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Array(_)
                    | DerivedDeclarator::Function(_)
                    | DerivedDeclarator::KRFunction(_)
            )
        });
        if adjust {
            let quals = match &inner.derived[npointers].node {
                DerivedDeclarator::Array(a) => {
                    let q = a
                        .node
                        .qualifiers
                        .iter()
                        .map(|q| node(PointerQualifier::TypeQualifier(q.clone()), q.span))
                        .collect();
                    inner.derived.remove(npointers);
                    q
                }
                _ => vec![],
            };
            let ptr = node(DerivedDeclarator::Pointer(quals), span);
            if inner.derived.len() == npointers {
                inner.derived.push(ptr);
            } else {
                let kind = std::mem::replace(&mut inner.kind, node(DeclaratorKind::Abstract, span));
                inner.kind = node(
                    DeclaratorKind::Declarator(Box::new(node(
                        Declarator {
                            kind,
                            derived: vec![ptr],
                            extensions: vec![],
                        },
                        span,
                    ))),
                    span,
                );
            }
        }
    }
    strip_top_qualifiers(&mut specs, &mut d);
    declare(specs, node(d, span), None, span)
}
