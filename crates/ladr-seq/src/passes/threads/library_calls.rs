//! Calls of C library functions in a slot's body, other than the pthread ones: what each
//! function declared at file scope returns ([`Returns`]), the hidden state of MT-Unsafe
//! functions ([`SlotRewriter::libc_state_access`]), and each call's model
//! ([`SlotRewriter::library_call`]): the slot's own `errno`, `model/libc.c`'s and
//! `model/string.c`'s functions, allocation functions and their sizes, and the results
//! invented for functions without a body.

use super::constants::{is_constant, with_constants};
use super::rewriter::{top_call, SlotRewriter};
use crate::model::library;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit_mut::VisitorMut;
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use ladr_ir::program::{AssumedResult, Assumption, Cut, CutKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;

impl SlotRewriter<'_> {
    /// For a statement calling an MT-Unsafe C library function that has no body in the
    /// program (`[lv =] strtok(…);`, [`library::libc_state`]): the access of its hidden
    /// state, a statement at the call's span that writes (`__ladr_libc_strtok = 0;`) or
    /// reads (`__ladr_libc_environ;`) the object standing for it, recorded in
    /// [`Program::libc_calls`](ladr_ir::program::Program::libc_calls), and the call's span.
    /// An ordinary access of a global: the later passes make it visible, find it race-free
    /// (only read, one thread's, under one mutex) or instrument it like any other.
    pub(super) fn libc_state_access(
        &mut self,
        s: &Node<Statement>,
    ) -> Option<(Node<Statement>, Span)> {
        let (_, c, cspan) = top_call(&s.node)?;
        let n = callee_name(c)?;
        let (group, effect) = library::libc_state(n)?;
        if self.libc_call == Some(cspan) || self.defs.contains_key(n) {
            return None;
        }
        self.p.libc_calls.insert(cspan.into(), n.to_string());
        let object = ident(&abi::libc_state(group), cspan);
        let access = match effect {
            library::Effect::Write => assign(object, int(0, cspan), cspan),
            library::Effect::Read => object,
        };
        Some((expr_stmt(access), cspan))
    }
}

impl SlotRewriter<'_> {
    /// A call of `n` in expression `e`, `n` not a pthread or semaphore function: each
    /// thread's own `errno`, the C library functions ladr models, allocation functions
    /// CBMC does not model ([`alias_allocation`]), string functions, results
    /// invented for functions without a body ([`SlotRewriter::invented_result`]) and heap
    /// objects of a non-constant size ([`SlotRewriter::heap_size`]).
    pub(super) fn library_call(&mut self, e: &mut Node<Expression>, n: &str) -> Result<Walk> {
        let Expression::Call(c) = &mut e.node else {
            return Ok(Walk::Descend);
        };
        // Each thread's own errno; C library functions ladr models.
        if n == library::ERRNO_LOCATION {
            *c.node.callee = ident(&abi::model_function(n), c.node.callee.span);
            c.node.arguments.push(int(self.slot as u64, c.span));
            self.libc_used = true;
            return Ok(Walk::Descend);
        }
        if library::libc_model(n) || (self.channels && library::channel_io(n)) {
            *c.node.callee = ident(&abi::model_function(n), c.node.callee.span);
            self.libc_used = true;
            return Ok(Walk::Descend);
        }
        // Allocation functions CBMC does not model: the one that does their job
        // (an alignment that is not a constant is still evaluated).
        if let Some(to) = library::allocation_alias(n).filter(|_| !self.defs.contains_key(n)) {
            alias_allocation(c, n, to)?;
            return self.expr(e);
        }
        // C library string functions whose CBMC model loops: the model's bounded
        // ones (`model/string.c`).
        if library::has_model(n) && !self.defs.contains_key(n) {
            let span = c.node.callee.span;
            *c.node.callee = ident(&abi::model_function(n), span);
            if library::copies_string(n) {
                // The copy's object has a constant size (`__ladr_strndup`).
                self.p.cuts.push(Cut {
                    kind: CutKind::HeapSize,
                    span: c.span,
                });
            }
            return Ok(Walk::Descend);
        }
        let call_span = c.span;
        if let Some(fresh) = self.invented_result(e, n, call_span) {
            *e = fresh;
            self.libc_used = true;
            return Ok(Walk::Skip);
        }
        if let Expression::Call(c) = &mut e.node {
            self.heap_size(c, n);
        }
        Ok(Walk::Descend)
    }

    /// For a call `e` (at `call_span`) of `n`, a function without a body whose result the
    /// program uses and that may invent one ([`library::invents_result`]): records the
    /// assumption of its result (`Program::assumptions`), and
    /// when that result is a pointer to an object, the fresh object that stands for it:
    /// `(__typeof__(f(a))) __ladr_fresh_block()`, an object of any size (an `int *` may be
    /// an array of any length: one `int` made `p[1]` out of bounds, a missed race); one
    /// byte, `__ladr_fresh_object(1)`, for a pointer to an incomplete type (CBMC's
    /// "any value" of a pointer may point into the program's own objects, even ladr's:
    /// DataRaceBench's `polybench_alloc_data` made a false race on a capture global).
    fn invented_result(
        &mut self,
        e: &Node<Expression>,
        n: &str,
        call_span: Span,
    ) -> Option<Node<Expression>> {
        let returns = self.returns_value.get(n).copied().unwrap_or_default();
        let fresh = returns.fresh(n);
        if self.discarded == Some(call_span)
            || self.defs.contains_key(n)
            || !returns.value
            || !library::invents_result(n)
        {
            return None;
        }
        let result = if fresh {
            AssumedResult::FreshObject
        } else {
            AssumedResult::AnyValue
        };
        if !self.p.assumptions.iter().any(|a| a.function == n) {
            self.p.assumptions.push(Assumption {
                function: n.to_string(),
                span: call_span,
                result,
            });
        }
        let span = e.span;
        let ty = || type_name(&[typeof_expr(e.clone(), span)], 0, span);
        if !fresh {
            return None;
        }
        if returns.opaque {
            return Some(cast(
                ty(),
                call(abi::FRESH_OBJECT, vec![int(1, span)], span),
                span,
            ));
        }
        Some(cast(ty(), call(abi::FRESH_BLOCK, vec![], span), span))
    }

    /// Heap objects of a non-constant size: see `__ladr_malloc` in the model. A size made
    /// of locals assigned a constant once is that constant (`n * sizeof(*a)` of an inlined
    /// `init(512)`: was 128 bytes, which stopped every execution before its threads).
    fn heap_size(&mut self, c: &mut Node<CallExpression>, n: &str) {
        let sizes = size_arguments(n);
        for (i, a) in c.node.arguments.iter_mut().enumerate() {
            if sizes.contains(&i) {
                let v = with_constants(a, &self.constants);
                if is_constant(&v.node, &HashSet::new()) {
                    *a = v;
                }
            }
        }
        let args = &c.node.arguments;
        if !sizes.is_empty()
            && !sizes.iter().all(|&i| {
                args.get(i)
                    .is_some_and(|a| is_constant(&a.node, &HashSet::new()))
            })
        {
            let model = abi::model_function(n);
            let span = c.node.callee.span;
            *c.node.callee = ident(&model, span);
            // The block's bytes, a constant CBMC allocates (`mmap`'s are a page).
            if !matches!(n, "mmap" | "mmap64") {
                (c.node.arguments).push(int(u64::from(self.heap_block), span));
            }
            // `__ladr_malloc` and `__ladr_calloc` are the pthread model's; the others
            // `model/libc.c`'s.
            self.libc_used |= !matches!(n, "malloc" | "calloc");
            self.p.cuts.push(Cut {
                kind: CutKind::HeapSize,
                span: c.span,
            });
        }
    }
}

/// Call `c` of allocation function `n`, which CBMC does not model, made a call of `to`,
/// the one that does its job ([`library::allocation_alias`]): `realloc(p, n * size)` for
/// `reallocarray(p, n, size)`, otherwise `malloc(size)` for `(aligned_alloc|memalign)(align,
/// size)`, the alignment still evaluated (`malloc((align, size))`) when not a constant.
fn alias_allocation(c: &mut Node<CallExpression>, n: &str, to: &str) -> Result<()> {
    let span = c.span;
    let args = std::mem::take(&mut c.node.arguments);
    let mut args = args.into_iter();
    let (Some(first), Some(second)) = (args.next(), args.next()) else {
        return Err(Error::unsupported(
            span,
            format!("`{n}` with too few arguments"),
        ));
    };
    c.node.arguments = if to == "realloc" {
        let Some(size) = args.next() else {
            return Err(Error::unsupported(
                span,
                format!("`{n}` with too few arguments"),
            ));
        };
        vec![first, binop(BinaryOperator::Multiply, second, size, span)]
    } else if is_constant(&first.node, &HashSet::new()) {
        vec![second]
    } else {
        vec![comma(vec![first, second], span)]
    };
    *c.node.callee = ident(to, c.node.callee.span);
    Ok(())
}

/// The arguments of allocation function `f` that give the size of the object it allocates
/// (none for other functions). A size that is not a constant makes the call one of the
/// model's (`__ladr_malloc`, `__ladr_calloc` in `model/pthread.c`, the others in
/// `model/libc.c`), whose objects have 128
/// bytes (`mmap`'s too: rpmalloc maps its spans with a length read from a global): CBMC's own models allocate objects of that symbolic size, on which CBMC 6.6
/// crashes (mpmc.c of sysprog21/concurrent-programs: `posix_memalign(&p, align, size)` in an
/// inlined helper).
fn size_arguments(f: &str) -> &'static [usize] {
    match f {
        "malloc" | "valloc" => &[0],
        "mmap" | "mmap64" => &[1],
        "calloc" => &[0, 1],
        // (`aligned_alloc` and `memalign` are `malloc` by now: `library::allocation_alias`.)
        "posix_memalign" => &[2],
        "realloc" => &[1],
        _ => &[],
    }
}
