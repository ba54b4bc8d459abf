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
    self, AT, AT_BEGIN, AT_END, C1_ADDR, C1_BEGIN, C1_END, C1_FREE, C1_KEY, C1_PICK, C1_R, C1_SITE,
    C1_W, C1_WNA, DRD, FIRST_SITE, P1, P2, SECOND_SITE,
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

/// Where the flag code of one access finds the access's address and bytes: a variable's
/// address as it is (`&x`, `&s.f`: short, always valid, constant for CBMC), any other
/// computed once in front of the code into [`AT`], [`AT_BEGIN`] and [`AT_END`] (`at`), so
/// that an address like `&a[i][j]` or `&p->q->f` appears twice in the code (its value and
/// its size) instead of a dozen times. The flag code needs no side effect of its own
/// between the computation and its uses (normal form N3: the address has none), so the
/// values are those the repeated expression had; a later access's code computes its own.
pub(super) struct Place {
    /// The address (`&x`, or `__ladr_at`, a `void *`).
    addr: Node<Expression>,
    /// `(long long)__CPROVER_POINTER_OFFSET(addr)`: where in its object the access begins.
    begin: Node<Expression>,
    /// Where it ends: `__ladr_at_end`, or, for a variable, `None`: `begin + size`.
    end: Option<Node<Expression>>,
    /// `(long long)sizeof *a`: how many bytes it covers.
    size: Node<Expression>,
    /// `addr` names a variable (or a member of one): always valid, never in an array.
    variable: bool,
    /// The pointers the address goes through, innermost first ([`through`]).
    through: Vec<Node<Expression>>,
}

/// The pointers address `a` goes through, innermost first: `p` and `p->q` of `&p->q[i]`,
/// `a` of `&a[i][j]` and of `(char (*)[n]) (a + 8)`; none with a side effect. At most four.
fn through(a: &Node<Expression>) -> Vec<Node<Expression>> {
    fn pointer(p: &Node<Expression>, out: &mut Vec<Node<Expression>>) {
        let p = match &p.node {
            Expression::Cast(c) => return pointer(&c.node.expression, out),
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) && matches!(b.node.rhs.node, Expression::Constant(_)) =>
            {
                return pointer(&b.node.lhs, out);
            }
            Expression::Constant(_) | Expression::StringLiteral(_) => return,
            // `&lv` is not null: only the pointers `lv` goes through may be.
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                return lvalue(&u.node.operand, out);
            }
            _ => p,
        };
        lvalue(p, out);
        // Evaluated again in the test: no call or assignment (one would run twice).
        if !ladr_c::syntax::walk::has_side_effect(&p.node) {
            out.push(p.clone());
        }
    }
    fn lvalue(lv: &Node<Expression>, out: &mut Vec<Node<Expression>>) {
        match &lv.node {
            Expression::BinaryOperator(x) if x.node.operator.node == BinaryOperator::Index => {
                pointer(&x.node.lhs, out)
            }
            Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => {
                pointer(&m.node.expression, out)
            }
            Expression::Member(m) => lvalue(&m.node.expression, out),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                pointer(&u.node.operand, out)
            }
            _ => {}
        }
    }
    let mut out = vec![];
    match &a.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            lvalue(&u.node.operand, &mut out)
        }
        _ => pointer(a, &mut out),
    }
    out.truncate(4);
    out
}

impl Place {
    /// The place of the access at address `a`, and the code that must run first: `None`
    /// for a variable's address, else `(at = (void *)a, at_begin = OFFSET(at), at_end =
    /// at_begin + sizeof *a, 1)`.
    pub(super) fn of(a: Node<Expression>, span: Span) -> (Option<Node<Expression>>, Place) {
        if names_variable(&a) {
            let place = Place {
                begin: begin(&a, span),
                end: None,
                size: size(&a, span),
                addr: a,
                variable: true,
                through: vec![],
            };
            return (None, place);
        }
        let through = through(&a);
        let void_pointer = type_name(&[TypeSpecifier::Void], 1, span);
        let compute = comma(
            vec![
                assign(ident(AT, span), cast(void_pointer, a.clone(), span), span),
                assign(ident(AT_BEGIN, span), begin(&ident(AT, span), span), span),
                assign(
                    ident(AT_END, span),
                    binop(
                        BinaryOperator::Plus,
                        ident(AT_BEGIN, span),
                        size(&a, span),
                        span,
                    ),
                    span,
                ),
                int(1, span),
            ],
            span,
        );
        let place = Place {
            addr: ident(AT, span),
            begin: ident(AT_BEGIN, span),
            end: Some(ident(AT_END, span)),
            size: binop(
                BinaryOperator::Minus,
                ident(AT_END, span),
                ident(AT_BEGIN, span),
                span,
            ),
            variable: false,
            through,
        };
        (Some(compute), place)
    }

    /// Where the access ends when it begins at `start` (its own begin, or C1's copy of it).
    fn end(&self, start: Node<Expression>, span: Span) -> Node<Expression> {
        match &self.end {
            Some(end) => end.clone(),
            None => binop(BinaryOperator::Plus, start, self.size.clone(), span),
        }
    }

    /// `same_object(addr, c1_addr) && begin < c1_end && c1_begin < end`: the bytes of the
    /// access meet those of C1's recorded access.
    fn overlaps(&self, span: Span) -> Node<Expression> {
        let same = call(
            abi::SAME_OBJECT,
            vec![self.addr.clone(), ident(C1_ADDR, span)],
            span,
        );
        let before_end = binop(
            BinaryOperator::Less,
            self.begin.clone(),
            ident(C1_END, span),
            span,
        );
        let after_begin = binop(
            BinaryOperator::Less,
            ident(C1_BEGIN, span),
            self.end(self.begin.clone(), span),
            span,
        );
        and(and(same, before_end, span), after_begin, span)
    }
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
    /// object too, so the integer must be at least [`NULL_PAGE`], and no pointer the access
    /// goes through null (`a[2000]` of two null `a` and `b` met at offset 8000 as one
    /// register: a false race; `(int *)0x40001000` is not null).
    fn valid(&self, at: &Place, span: Span) -> Option<Node<Expression>> {
        if at.variable {
            return None;
        }
        let in_bounds = call(abi::R_OK, vec![at.addr.clone(), at.size.clone()], span);
        let integer_address = cast(
            type_name(&[TypeSpecifier::Char], 1, span),
            int(1, span),
            span,
        );
        let same = call(
            abi::SAME_OBJECT,
            vec![at.addr.clone(), integer_address],
            span,
        );
        // CBMC's null pointer is in that object too, at offset 0: an access through a null
        // pointer (or a member of a struct at one) is no device register.
        let above_null_page = binop(
            BinaryOperator::GreaterOrEqual,
            at.begin.clone(),
            int(NULL_PAGE, span),
            span,
        );
        let register = at
            .through
            .iter()
            .fold(and(same, above_null_page, span), |r, p| {
                and(
                    r,
                    binop(BinaryOperator::NotEquals, p.clone(), int(0, span), span),
                    span,
                )
            });
        Some(or(in_bounds, register, span))
    }

    /// `P2 && !drd && [valid &&] (c1_w && overlaps(a) && (drd = 1, first = c1_site,
    /// second = id, 1))`: every access checks for a write of C1 (`c1_w`, or `c1_wna` when
    /// atomic) on its bytes, a plain write also for a plain read of C1 (`c1_r`).
    pub(super) fn check(
        &self,
        at: &Place,
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
        let test = self.recorded(and(conflicting, at.overlaps(span), span), id, span);
        let p2 = and(ident(P2, span), not(ident(DRD, span), span), span);
        let mut pre = p2.clone();
        let valid = self.valid(at, span);
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
                call(
                    abi::SAME_OBJECT,
                    vec![at.addr.clone(), ident(C1_FREE, span)],
                    span,
                ),
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
    fn set(&self, at: &Place, write: bool, atomic: bool, id: u32, span: Span) -> Node<Expression> {
        let flags: &[&str] = match (write, atomic) {
            (true, false) => &[C1_W, C1_WNA],
            (true, true) => &[C1_W],
            (false, _) => &[C1_R],
        };
        let void_pointer = type_name(&[TypeSpecifier::Void], 1, span);
        let mut v = vec![
            assign(
                ident(C1_ADDR, span),
                cast(void_pointer, at.addr.clone(), span),
                span,
            ),
            assign(ident(C1_BEGIN, span), at.begin.clone(), span),
            assign(
                ident(C1_END, span),
                at.end(ident(C1_BEGIN, span), span),
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
        if let Some(ok) = self.valid(at, span) {
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
        let (compute, at) = Place::of(a, span);
        v.extend(compute);
        if write || (!atomic && self.names_object(&shown.node)) {
            v.push(self.set(&at, write, atomic, id, span));
        }
        v.push(self.check(&at, write, atomic, id, span));
        v
    }
}
