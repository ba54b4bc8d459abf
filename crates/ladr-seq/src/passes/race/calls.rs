//! The accesses of calls and `asm` in `race`: library functions through their pointer
//! arguments (`model/library.rs`), `free`/`realloc` (C1 records the block), the
//! `__atomic_*`/`__sync_*` builtins (atomic accesses through any pointer) and the
//! operands of an extended `asm` statement.

use super::access::Instrumenter;
use super::shadow::Place;
use crate::model::library;
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::query;
use ladr_c::syntax::walk::has_side_effect;
use ladr_ir::abi::{self, C1_FREE, C1_KEY, C1_SITE};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The number of bytes an [`library::Extent`] says, from the call's arguments (`None`: an
/// argument is missing or has side effects), as `(size_t)(n)`.
fn extent_value(
    x: library::Extent,
    args: &[Node<Expression>],
    span: Span,
) -> Option<Node<Expression>> {
    let arg = |i: usize| {
        args.get(i).filter(|a| !has_side_effect(&a.node)).map(|a| {
            cast(
                type_name(&[TypeSpecifier::Unsigned, TypeSpecifier::Long], 0, span),
                a.clone(),
                span,
            )
        })
    };
    match x {
        library::Extent::Arg(i) => arg(i),
        library::Extent::Product(i, j) => {
            Some(binop(BinaryOperator::Multiply, arg(i)?, arg(j)?, span))
        }
    }
}

/// `char (*)[n]`: the type of a pointer to `n` bytes.
pub(super) fn char_array_pointer(n: Node<Expression>, span: Span) -> Node<TypeName> {
    let declarator = node(
        Declarator {
            kind: node(
                DeclaratorKind::Declarator(Box::new(node(
                    Declarator {
                        kind: node(DeclaratorKind::Abstract, span),
                        derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                        extensions: vec![],
                    },
                    span,
                ))),
                span,
            ),
            derived: vec![node(
                DerivedDeclarator::Array(node(
                    ArrayDeclarator {
                        qualifiers: vec![],
                        size: ArraySize::VariableExpression(Box::new(n)),
                    },
                    span,
                )),
                span,
            )],
            extensions: vec![],
        },
        span,
    );
    node(
        TypeName {
            specifiers: vec![node(
                SpecifierQualifier::TypeSpecifier(node(TypeSpecifier::Char, span)),
                span,
            )],
            declarator: Some(declarator),
        },
        span,
    )
}

/// Does `s` call `free` or `realloc` ([`library::frees`])?
pub(super) fn calls_free(s: &Node<Statement>) -> bool {
    query::any_expr(s, query::Operands::All, |e| {
        matches!(&e.node, Expression::Call(c)
            if callee_name(&c.node).is_some_and(|n| library::frees(abi::modelled_function(n))))
    })
}

impl Instrumenter<'_> {
    /// An extended `asm` statement accesses the lvalues it names as operands: each output
    /// is written (`+`: also read), each input read (its value; `"m"(*p)` reads `*p`, an
    /// address `&x` reads nothing). The template itself stays (CBMC ignores it). One that
    /// locks (`lock`, `xchg`: x86's atomic read-modify-writes) accesses its memory operands
    /// (constraint `m`) atomically, like the `__atomic_*` builtins; a register operand is
    /// loaded or stored by the compiler's own plain code around the instruction.
    pub(super) fn asm_accesses(&mut self, g: &GnuExtendedAsmStatement) -> Vec<Node<Expression>> {
        let text = g.template.node.concat();
        let locked = text.contains("lock") || text.contains("xchg");
        let saved = self.atomic;
        let mut pre = vec![];
        for o in &g.outputs {
            let lv = &o.node.variable_name;
            if has_side_effect(&lv.node) {
                continue;
            }
            let constraints = o.node.constraints.node.concat();
            self.atomic = saved || (locked && constraints.contains('m'));
            if constraints.contains('+') {
                pre.push(self.acc(lv.clone()));
            }
            pre.extend(self.write_code(lv));
        }
        for i in &g.inputs {
            let e = &i.node.variable_name;
            if !has_side_effect(&e.node) {
                self.atomic = saved || (locked && i.node.constraints.node.concat().contains('m'));
                pre.push(self.acc(e.clone()));
            }
        }
        self.atomic = saved;
        pre
    }

    /// `free(p)` / `realloc(p, n)`: a write of the whole block `*p`. As C1's last access it
    /// records the block (`c1_free = (char *)p`, checked by C2's accesses through pointers)
    /// instead of recording an access (with shadow memory, setting flags on a heap block of
    /// symbolic size cost CBMC 10 s → over 100 s on a task freeing at its end); as C2's
    /// first it checks C1's flags on the block's first byte (and its `c1_free`).
    fn free_accesses(&mut self, p: &Node<Expression>) -> Vec<Node<Expression>> {
        if has_side_effect(&p.node) {
            return vec![];
        }
        let span = p.span;
        let shown = match &p.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                (*u.node.operand).clone()
            }
            _ => deref(p.clone(), span),
        };
        let id = self.site(&shown, true, false);
        let byte = cast(type_name(&[TypeSpecifier::Char], 1, span), p.clone(), span);
        let mut record = vec![
            assign(ident(C1_FREE, span), byte.clone(), span),
            assign(ident(C1_SITE, span), int(id as u64, span), span),
        ];
        if let Some(x) = self.exclusion {
            let k = x.key(span);
            record.push(assign(ident(C1_KEY, span), int(k as u64, span), span));
        }
        record.push(int(1, span));
        let mut out = vec![and(self.picked(id, span), comma(record, span), span)];
        let (compute, at) = Place::of(byte, span);
        out.extend(compute);
        out.push(self.check(&at, true, false, id, span));
        out
    }

    pub(super) fn call(&mut self, mut c: CallExpression, span: Span) -> Node<Expression> {
        let name = callee_name(&c).map(str::to_string);
        if let Some(target) = name.as_deref().and_then(library::atomic_builtin) {
            return self.atomic_builtin(name.as_deref().unwrap_or(""), target, c, span);
        }
        // The callee: a named function is no access; a function pointer is read.
        if name.is_none() {
            let callee = std::mem::replace(&mut *c.callee, int(0, Span::none()));
            *c.callee = match callee.node {
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    deref(self.acc(*u.node.operand), callee.span)
                }
                other => self.acc(node(other, callee.span)),
            };
        }
        let library_name = name.as_deref().map(abi::modelled_function);
        let pre = match library_name.and_then(library::effects) {
            _ if library_name.is_some_and(library::frees) && !c.arguments.is_empty() => {
                self.free_accesses(&c.arguments[0])
            }
            Some(effects) => {
                self.library_accesses(library_name.unwrap_or(""), effects, &c.arguments)
            }
            None => vec![],
        };
        c.arguments = std::mem::take(&mut c.arguments)
            .into_iter()
            .map(|a| self.acc(a))
            .collect();
        let call = call_expr(*c.callee, c.arguments, span);
        if pre.is_empty() {
            call
        } else {
            comma(pre.into_iter().chain([call]).collect(), span)
        }
    }

    /// Flag code for what a library call reads and writes through its pointer arguments
    /// ([`library`]): an access of the bytes it covers, `*(char (*)[n])arg`, when their
    /// number `n` ([`library::extent`]) is a constant expression; of the first and the last
    /// byte, `*(char *)arg` and `((char *)arg)[n - 1]` when `n > 0`, when it is not; of the
    /// first byte when it is not known; none when it is the constant 0. Arguments with side
    /// effects cannot be evaluated twice and are left out.
    fn library_accesses(
        &mut self,
        name: &str,
        effects: &[(library::Args, library::Effect)],
        args: &[Node<Expression>],
    ) -> Vec<Node<Expression>> {
        let mut out = vec![];
        for &(sel, effect) in effects {
            for i in library::selected(sel, args.len()) {
                let a = &args[i];
                if has_side_effect(&a.node) {
                    continue;
                }
                let span = a.span;
                let shown = match &a.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        (*u.node.operand).clone()
                    }
                    _ => deref(a.clone(), span),
                };
                if !self.storage_shared(&shown.node) {
                    continue;
                }
                let write = effect == library::Effect::Write;
                let bytes = library::extent(name, i).and_then(|x| extent_value(x, args, span));
                match bytes {
                    // No bytes (`memcpy(p, q, 0)`): no access, and no `char (*)[0]`
                    // (whose shadow memory failed a CBMC 6.6 invariant, boolbv.cpp:73).
                    Some(n) if constant::value(&n.node, &constant::Env::default()) == Some(0) => {}
                    Some(n) if constant::is_constant(&n.node, &constant::Env::default()) => {
                        let range = cast(char_array_pointer(n, span), a.clone(), span);
                        out.extend(self.flags(&shown, range, write, self.atomic));
                    }
                    Some(n) => {
                        let byte =
                            cast(type_name(&[TypeSpecifier::Char], 1, span), a.clone(), span);
                        out.extend(self.flags(&shown, byte.clone(), write, self.atomic));
                        // `n > 0 && flags of ((char *)a + (n - 1))`
                        let last = binop(
                            BinaryOperator::Plus,
                            byte,
                            binop(BinaryOperator::Minus, n.clone(), int(1, span), span),
                            span,
                        );
                        let positive = binop(BinaryOperator::Greater, n, int(0, span), span);
                        for f in self.flags(&shown, last, write, self.atomic) {
                            out.push(and(positive.clone(), f, span));
                        }
                    }
                    None => {
                        let byte =
                            cast(type_name(&[TypeSpecifier::Char], 1, span), a.clone(), span);
                        out.extend(self.flags(&shown, byte, write, self.atomic));
                    }
                }
            }
        }
        out
    }

    /// `__atomic_*(p, …)` / `__sync_*(p, …)`: an atomic access of `*p` through any pointer
    /// `p` (a read for loads, a write for everything else; none for fences), shown as `x`
    /// for `&x`; the other pointer arguments of the generic forms (`__atomic_load(p, ret,
    /// mo)` writes `*ret`) are plain accesses ([`library::effects`]).
    fn atomic_builtin(
        &mut self,
        name: &str,
        target: Option<library::Effect>,
        mut c: CallExpression,
        span: Span,
    ) -> Node<Expression> {
        let mut pre = vec![];
        if let (Some(effect), Some(p0)) = (target, c.arguments.first()) {
            if !has_side_effect(&p0.node) {
                let shown = match &p0.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        (*u.node.operand).clone()
                    }
                    _ => deref(p0.clone(), p0.span),
                };
                if self.storage_shared(&shown.node) {
                    let write = effect == library::Effect::Write;
                    let a = match &shown.node {
                        Expression::UnaryOperator(_) => p0.clone(),
                        _ => self.address(&shown),
                    };
                    pre.extend(self.flags(&shown, a, write, true));
                }
            }
        }
        if let Some(effects) = library::effects(name) {
            pre.extend(self.library_accesses(name, effects, &c.arguments));
        }
        c.arguments = std::mem::take(&mut c.arguments)
            .into_iter()
            .map(|a| self.acc(a))
            .collect();
        pre.push(call_expr(*c.callee, c.arguments, span));
        comma(pre, span)
    }
}
