//! The flag code of one access in `race`: the address whose shadow memory stands for it,
//! C1's `set_field` of `w`/`wna`/`r` when it is the picked access, C2's `get_field` check
//! and the recording of a race found (with the excluded pairs left out).

use super::access::Instrumenter;
use ladr_c::syntax::build::*;
use ladr_ir::abi::{self, C1_FREE, C1_KEY, C1_PICK, C1_SITE, DRD, FIRST_SITE, P1, P2, SECOND_SITE};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// Is `a` a cast to a pointer to an array (`(char (*)[n])p`,
/// [`char_array_pointer`](super::calls::char_array_pointer))?
fn is_byte_range(a: &Node<Expression>) -> bool {
    matches!(&a.node, Expression::Cast(c) if c.node.type_name.node.declarator.as_ref().is_some_and(
        |d| d.node.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Array(_)))))
}

/// Is `a` the address of a variable or of a member of one (`&x`, `&s.f.g`): always valid,
/// and never inside an array?
fn names_variable(a: &Node<Expression>) -> bool {
    fn plain(e: &Expression) -> bool {
        match e {
            Expression::Identifier(_) => true,
            Expression::Member(m) => {
                m.node.operator.node == MemberOperator::Direct && plain(&m.node.expression.node)
            }
            _ => false,
        }
    }
    matches!(&a.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Address && plain(&u.node.operand.node))
}

/// The address handed to `__CPROVER_set_field`/`get_field` for the object `*a`: `a`
/// itself, or `(void ***)a` when that object is a pointer, chosen at compile time
/// (`__builtin_choose_expr(__builtin_classify_type(*a) == 5, (void ***)a, a)`; the size
/// of a pointer is the size of any pointer).
///
/// CBMC 6.6's shadow memory takes an address of type `T **`, T no pointer, as unable to
/// point into an object that is an array of non-pointers (a heuristic of
/// `are_types_compatible` against `char **` meeting `char[]`), so the address of a pointer
/// member of a struct in an array (`names[i].str`, `blocks[1].next` in a heap block)
/// matched no object: `set_field` did nothing (a race on it went unseen), `get_field`
/// returned a value from no flag at all (a race whose first access no site of C1 had
/// recorded: "unknown access sites"), or CBMC failed an invariant. An address of type
/// `void ***` is never taken for that case, and for a pointer variable (whose shadow
/// type is a pointer to a non-pointer) the pointed-to type stays a pointer, as CBMC
/// requires there. A variable or a member of one (`&x`, `&s.f`) is no array element, so
/// its address is handed over as it is.
fn shadow_address(a: &Node<Expression>) -> Node<Expression> {
    // A variable or a member of one is no array's element: its address is taken as it is.
    // Nor is a range of bytes (`(char (*)[n])p`, [`char_array_pointer`]) a pointer, though
    // `__builtin_classify_type` would call the array it points to one (it decays).
    if names_variable(a) || is_byte_range(a) {
        return a.clone();
    }
    let span = a.span;
    let object = match &a.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            (*u.node.operand).clone()
        }
        _ => deref(a.clone(), span),
    };
    let is_pointer = eq(
        call(abi::CLASSIFY_TYPE, vec![object], span),
        int(abi::POINTER_TYPE_CLASS, span),
        span,
    );
    let as_pointer = cast(type_name(&[TypeSpecifier::Void], 3, span), a.clone(), span);
    call(
        abi::CHOOSE_EXPR,
        vec![is_pointer, as_pointer, a.clone()],
        span,
    )
}

impl Instrumenter<'_> {
    /// `P && [r_ok(a, sizeof *a) &&] rest`: an access through a pointer or an index is
    /// flagged only when its address is valid. An out-of-bounds or dangling access is
    /// undefined behaviour, not a data race, and the shadow memory of such an address
    /// holds no meaningful flag (CBMC returns any value), which would be a false alarm.
    fn valid(&self, a: &Node<Expression>, span: Span) -> Option<Node<Expression>> {
        if names_variable(a) {
            return None;
        }
        let size = size_of_val(deref(a.clone(), span), span);
        Some(call(abi::R_OK, vec![a.clone(), size], span))
    }

    /// `P2 && !drd && [valid &&] (get_field(a, "w") && (drd = 1, first = c1_site,
    /// second = id, 1) || …)`: every access checks for a write of C1 (`w`, or `wna` when
    /// atomic), a plain write also for a plain read of C1 (`r`).
    pub(super) fn check(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        let found = |read: bool| {
            let field = match (read, atomic) {
                (true, _) => abi::FIELD_R,
                (false, false) => abi::FIELD_W,
                (false, true) => abi::FIELD_WNA,
            };
            let get = call(
                abi::GET_FIELD,
                vec![shadow_address(&a), string(field, span)],
                span,
            );
            self.recorded(get, id, span)
        };
        let mut test = found(false);
        if write && !atomic {
            test = or(test, found(true), span);
        }
        let p2 = and(ident(P2, span), not(ident(DRD, span), span), span);
        let mut pre = p2.clone();
        let valid = self.valid(&a, span);
        let through_pointer = valid.is_some();
        if let Some(v) = valid {
            pre = and(pre, v, span);
        }
        let mut checked = and(pre, test, span);
        // A block C1 freed: any access of it through a pointer races with the free (the
        // block is gone, so its shadow memory is no help: the pointer says which block).
        if self.frees && through_pointer {
            let freed = and(
                and(
                    p2,
                    binop(
                        BinaryOperator::NotEquals,
                        ident(C1_FREE, span),
                        int(0, span),
                        span,
                    ),
                    span,
                ),
                call(abi::SAME_OBJECT, vec![a, ident(C1_FREE, span)], span),
                span,
            );
            checked = or(checked, self.recorded(freed, id, span), span);
        }
        checked
    }

    /// `found && (drd = 1, first = c1_site, second = id, 1)`, where an excluded pair is not
    /// recorded: `found` also requires `c1_key != k` for each access of key k whose pair
    /// with this one is excluded.
    fn recorded(&self, found: Node<Expression>, id: u32, span: Span) -> Node<Expression> {
        let partners = self.exclusion.map_or(&[][..], |x| x.partners(span));
        let found = partners.iter().fold(found, |g, &k| {
            let differs = binop(
                BinaryOperator::NotEquals,
                ident(C1_KEY, span),
                int(k as u64, span),
                span,
            );
            and(g, differs, span)
        });
        and(found, self.record(id, span), span)
    }

    /// `drd = 1, first = c1_site, second = id, 1`.
    fn record(&self, id: u32, span: Span) -> Node<Expression> {
        comma(
            vec![
                assign(ident(DRD, span), int(1, span), span),
                assign(ident(FIRST_SITE, span), ident(C1_SITE, span), span),
                assign(ident(SECOND_SITE, span), int(id as u64, span), span),
                int(1, span),
            ],
            span,
        )
    }

    /// `P1 && c1_pick == id`: access `id` is C1's picked one ([`abi::C1_PICK`]).
    pub(super) fn picked(&self, id: u32, span: Span) -> Node<Expression> {
        and(
            ident(P1, span),
            eq(ident(C1_PICK, span), int(id as u64, span), span),
            span,
        )
    }

    fn set(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        let a0 = a.clone();
        let fields: &[&str] = match (write, atomic) {
            (true, false) => &[abi::FIELD_W, abi::FIELD_WNA],
            (true, true) => &[abi::FIELD_W],
            (false, _) => &[abi::FIELD_R],
        };
        let mut v: Vec<_> = fields
            .iter()
            .map(|f| {
                call(
                    abi::SET_FIELD,
                    vec![shadow_address(&a), string(f, span), int(1, span)],
                    span,
                )
            })
            .collect();
        v.push(assign(ident(C1_SITE, span), int(id as u64, span), span));
        if let Some(x) = self.exclusion {
            let k = x.key(span);
            v.push(assign(ident(C1_KEY, span), int(k as u64, span), span));
        }
        v.push(int(1, span));
        let mut pre = self.picked(id, span);
        if let Some(ok) = self.valid(&a0, span) {
            pre = and(pre, ok, span);
        }
        and(pre, comma(v, span), span)
    }

    /// Flag code for one access of the object at address `a`: its part as the last access of
    /// C1 and its part as the first of C2.
    pub(super) fn flags(
        &mut self,
        shown: &Node<Expression>,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
    ) -> Vec<Node<Expression>> {
        let id = self.site(shown, write, atomic);
        let span = shown.span;
        let mut v = vec![];
        // A read as C1's last access is flagged only when it is not atomic (an atomic read
        // races only with a plain write, found with the write first) and on an object the
        // lvalue names: setting a flag through a pointer makes CBMC update the shadow of
        // every object the pointer may reach, and at a computed index of a large array it
        // updates a symbolic place, which for reads (many more than writes) costs far more
        // than it finds (measured: 0.4 s → 18 s reading `argv[1][0]`; 7 s → 59 s reading
        // `pool[i]`).
        if write || (!atomic && self.names_object(&shown.node)) {
            v.push(self.set(a.clone(), write, atomic, id, span));
        }
        v.push(self.check(a, write, atomic, id, span));
        v
    }
}
