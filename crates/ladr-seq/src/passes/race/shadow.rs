//! The flag code of one access in `race`, with one monitored address
//! (docs/decisions/one-address.md): C1's picked access records where it accessed
//! (`c1_addr`, its byte range `[c1_begin, c1_end)`) and what it did (`c1_w`/`c1_wna`/`c1_r`);
//! C2's check compares its own bytes with that range; the recording of a race found (with
//! the excluded pairs left out).
//!
//! Only one access of C1 records (`c1_pick`, [`abi::C1_PICK`]), so these few scalars hold
//! everything a flag per byte of shadow memory held: the state is O(1) whatever the size of
//! the program's arrays, where CBMC's shadow memory grew with every object an address may
//! reach (a 1000-element array indexed symbolically: a shadow cell per element, updated at
//! a symbolic place).

use super::access::Instrumenter;
use ladr_c::syntax::build::*;
use ladr_ir::abi::{
    self, C1_ADDR, C1_BEGIN, C1_END, C1_FREE, C1_KEY, C1_PICK, C1_R, C1_SITE, C1_W, C1_WNA, DRD,
    FIRST_SITE, P1, P2, SECOND_SITE,
};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

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

/// `(long long)e`: offsets and sizes compared in one signed type wide enough for both
/// (`__CPROVER_POINTER_OFFSET` is signed, `sizeof` unsigned, and their widths follow the
/// data model).
fn wide(e: Node<Expression>, span: Span) -> Node<Expression> {
    let long_long = type_name(&[TypeSpecifier::Long, TypeSpecifier::Long], 0, span);
    cast(long_long, e, span)
}

/// `(long long)__CPROVER_POINTER_OFFSET(a)`: where in its object the access at `a` begins.
fn begin(a: &Node<Expression>, span: Span) -> Node<Expression> {
    wide(call(abi::POINTER_OFFSET, vec![a.clone()], span), span)
}

/// `(long long)sizeof *a`: how many bytes the access at `a` covers (`n` for a range of
/// bytes `(char (*)[n])p`, one for a bit-field's anchor byte).
fn size(a: &Node<Expression>, span: Span) -> Node<Expression> {
    wide(size_of_val(deref(a.clone(), span), span), span)
}

/// `same_object(a, c1_addr) && begin(a) < c1_end && c1_begin < begin(a) + size(a)`: the
/// bytes of the access at `a` meet those of C1's recorded access.
fn overlaps(a: &Node<Expression>, span: Span) -> Node<Expression> {
    let same = call(
        abi::SAME_OBJECT,
        vec![a.clone(), ident(C1_ADDR, span)],
        span,
    );
    let before_end = binop(
        BinaryOperator::Less,
        begin(a, span),
        ident(C1_END, span),
        span,
    );
    let end = binop(BinaryOperator::Plus, begin(a, span), size(a, span), span);
    let after_begin = binop(BinaryOperator::Less, ident(C1_BEGIN, span), end, span);
    and(and(same, before_end, span), after_begin, span)
}

/// The size of the page at address 0 that no device register lies in: an access through
/// a pointer made from a smaller integer is taken as one through a null pointer (to a
/// member), undefined behaviour, not a race.
const NULL_PAGE: u64 = 4096;

impl Instrumenter<'_> {
    /// `P && [(r_ok(a, sizeof *a) || same_object(a, (char *)1)) &&] rest`: an access
    /// through a pointer or an index is flagged only when its address is valid or made
    /// from an integer. An out-of-bounds or dangling access is undefined behaviour, not a
    /// data race, and its address would be compared with C1's as if it were one (a false
    /// alarm). A pointer made from an integer (`*(volatile int *)0x40001000`, a device
    /// register) is never valid for CBMC, but every such pointer points into one object,
    /// CBMC's integer address, at the integer as offset (as `(char *)1` does): two accesses
    /// of one register meet there, as they do in the machine. The null pointer is in that
    /// object too, so the integer must be at least [`NULL_PAGE`].
    fn valid(&self, a: &Node<Expression>, span: Span) -> Option<Node<Expression>> {
        if names_variable(a) {
            return None;
        }
        let size = size_of_val(deref(a.clone(), span), span);
        let in_bounds = call(abi::R_OK, vec![a.clone(), size], span);
        let integer_address = cast(
            type_name(&[TypeSpecifier::Char], 1, span),
            int(1, span),
            span,
        );
        let same = call(abi::SAME_OBJECT, vec![a.clone(), integer_address], span);
        // CBMC's null pointer is in that object too, at offset 0: an access through a null
        // pointer (or a member of a struct at one) is no device register.
        let above_null_page = binop(
            BinaryOperator::GreaterOrEqual,
            begin(a, span),
            int(NULL_PAGE, span),
            span,
        );
        Some(or(in_bounds, and(same, above_null_page, span), span))
    }

    /// `P2 && !drd && [valid &&] (c1_w && overlaps(a) && (drd = 1, first = c1_site,
    /// second = id, 1))`: every access checks for a write of C1 (`c1_w`, or `c1_wna` when
    /// atomic) on its bytes, a plain write also for a plain read of C1 (`c1_r`).
    pub(super) fn check(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        // What of C1's access conflicts: an atomic access conflicts with a write outside
        // an atomic access, a plain read with any write, a plain write also with a read.
        let conflicting = match (write, atomic) {
            (_, true) => ident(C1_WNA, span),
            (false, false) => ident(C1_W, span),
            (true, false) => or(ident(C1_W, span), ident(C1_R, span), span),
        };
        let test = self.recorded(and(conflicting, overlaps(&a, span), span), id, span);
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

    /// `P1 && c1_pick == id && [valid &&] (c1_addr = (void *)a, c1_begin = …, c1_end = …,
    /// c1_w = 1, …, c1_site = id, 1)`: C1's picked access records its bytes and kind.
    fn set(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        let flags: &[&str] = match (write, atomic) {
            (true, false) => &[C1_W, C1_WNA],
            (true, true) => &[C1_W],
            (false, _) => &[C1_R],
        };
        let void_pointer = type_name(&[TypeSpecifier::Void], 1, span);
        let mut v = vec![
            assign(
                ident(C1_ADDR, span),
                cast(void_pointer, a.clone(), span),
                span,
            ),
            assign(ident(C1_BEGIN, span), begin(&a, span), span),
            assign(
                ident(C1_END, span),
                binop(
                    BinaryOperator::Plus,
                    ident(C1_BEGIN, span),
                    size(&a, span),
                    span,
                ),
                span,
            ),
        ];
        v.extend(
            flags
                .iter()
                .map(|f| assign(ident(f, span), int(1, span), span)),
        );
        v.push(assign(ident(C1_SITE, span), int(id as u64, span), span));
        if let Some(x) = self.exclusion {
            let k = x.key(span);
            v.push(assign(ident(C1_KEY, span), int(k as u64, span), span));
        }
        v.push(int(1, span));
        let mut pre = self.picked(id, span);
        if let Some(ok) = self.valid(&a, span) {
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
        // than it finds (measured with shadow memory: 0.4 s → 18 s reading `argv[1][0]`;
        // 7 s → 59 s reading `pool[i]`; with one address, not measured again).
        if write || (!atomic && self.names_object(&shown.node)) {
            v.push(self.set(a.clone(), write, atomic, id, span));
        }
        v.push(self.check(a, write, atomic, id, span));
        v
    }
}
