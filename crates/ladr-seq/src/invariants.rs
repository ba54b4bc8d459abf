//! The invariants of the program between passes, checked: the normal form N1–N6
//! (`passes/mod.rs`) and the bounded-program guarantees (no loop, no backward goto, no call
//! of a function with a body), with a typed [`Violation`] for each breach.
//!
//! Which invariants hold after which pass is a column of the pipeline's one table
//! (`pipeline::PASSES`, `Pass::holds`: a pass is a `PassId`, never a string);
//! `pipeline::translate` checks them (`pipeline::check_after`) after every pass in debug builds and when
//! `Options::check_ir` is set (`ladr --check-ir`), and turns the first violation into an
//! internal error naming the pass.
//!
//! The code checked is every function definition of the unit and, after `visible`, every
//! slot's items in `Program::code` (as the body of its slot function, labels included).

use crate::normal_form::{called, havoced_var, kept_call, ERROR_FUNCTIONS};
use ladr_c::diag::{Error, ErrorKind};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec};
use ladr_ir::abi::{self, is_model_function, is_slot_function, slot_function};
use ladr_ir::program::{Item, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

/// One checked invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Invariant {
    /// N1: no `switch`, `for`, `do`, `break`, `continue`, `case`/`default` labels.
    N1,
    /// N2: conditions of `if`/`while` and `return` values have no side effects.
    N2,
    /// N3: an expression statement has at most one side effect, at its top.
    N3,
    /// N4: automatic locals have no initialiser and are havoced or assigned next.
    N4,
    /// N5: atomic sections are one block from `__VERIFIER_atomic_begin();` to `…_end();`.
    N5,
    /// N6: no call of an SV-COMP error function or of `__VERIFIER_assume`.
    N6,
    /// Bounded: no loop (`while`, `do`, `for`).
    Loop,
    /// Bounded: no `goto` to a label earlier in the function's text.
    BackwardGoto,
    /// Bounded: no call of a function the program defines (besides [`kept_call`] names and
    /// the functions `inline` kept, `Program::kept`).
    CallOfDefinedFunction,
    /// One name, one declaration: no two parameters or block-scope objects of the program,
    /// nor one of them and a file-scope name, share a name (`hygiene`), so the analyses'
    /// facts keyed by name are keyed by declaration.
    UniqueNames,
}

use Invariant::*;

/// The normal form.
pub const NORMAL_FORM: &[Invariant] = &[N1, N2, N3, N4, N5, N6];
/// The normal form and the bounded-program guarantees.
pub const BOUNDED: &[Invariant] = &[
    N1,
    N2,
    N3,
    N4,
    N5,
    N6,
    Loop,
    BackwardGoto,
    CallOfDefinedFunction,
];
/// The bounded-program guarantees and one name per declaration (from `threads` on).
pub const BOUNDED_UNIQUE: &[Invariant] = &[
    N1,
    N2,
    N3,
    N4,
    N5,
    N6,
    Loop,
    BackwardGoto,
    CallOfDefinedFunction,
    UniqueNames,
];
/// What holds of the instrumented program: `race` puts its flag code (assignments of
/// `__ladr_*` flags, tests of C1's one address) into comma and `&&`
/// expressions of visible statements and their conditions, which breaks N2 and N3 by design.
pub const INSTRUMENTED: &[Invariant] = &[N1, N4, N5, N6, Loop, BackwardGoto, CallOfDefinedFunction];

/// What holds after `inline`: the normal form, and no call of a defined function.
pub const INLINED: &[Invariant] = &[N1, N2, N3, N4, N5, N6, CallOfDefinedFunction];

impl Invariant {
    /// What the invariant says, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            N1 => "N1 (only `while` loops, no switch/for/do/break/continue)",
            N2 => "N2 (side-effect-free conditions and return values)",
            N3 => "N3 (one side effect per expression statement, at its top)",
            N4 => "N4 (locals uninitialised, then havoced or assigned)",
            N5 => "N5 (atomic sections are one block)",
            N6 => "N6 (no SV-COMP error or assume calls)",
            Loop => "bounded: no loops",
            BackwardGoto => "bounded: no backward gotos",
            CallOfDefinedFunction => "bounded: no calls of defined functions",
            UniqueNames => "one declaration per name",
        }
    }
}

impl std::fmt::Display for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A place where an invariant does not hold.
#[derive(Clone, Debug)]
pub struct Violation {
    pub invariant: Invariant,
    /// The function (or slot function) it is in.
    pub function: String,
    /// The statement, declaration or expression (may be `Span::none()` in generated code).
    pub span: Span,
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: in `{}`: {}",
            self.invariant, self.function, self.message
        )
    }
}

/// The error for a violation found after `pass`.
pub fn internal_error(pass: &str, v: &Violation) -> Error {
    let e = Error::new(
        ErrorKind::Internal,
        format!(
            "internal error: the `{pass}` pass broke invariant {} in `{}`: {}",
            v.invariant, v.function, v.message
        ),
    )
    .note(format!("{} is {}", v.invariant, v.invariant.describe()))
    .note("this is a bug in ladr; please report it with the input program");
    if v.span.is_none() {
        e
    } else {
        e.at(v.span, format!("{} broken here", v.invariant))
    }
}

/// Every violation of the invariants in `which`, in program order.
pub fn check(p: &Program, which: &[Invariant]) -> Vec<Violation> {
    let in_unit: HashSet<String> = p
        .unit
        .0
        .iter()
        .filter_map(|e| match &e.node {
            ExternalDeclaration::FunctionDefinition(f) => function_name(&f.node).map(String::from),
            _ => None,
        })
        .collect();
    let mut defined: HashSet<String> = in_unit
        .iter()
        .filter(|f| !p.kept.contains(*f))
        .cloned()
        .collect();
    defined.extend((0..p.code.len()).map(slot_function));
    let mut c = Checker {
        which,
        defined,
        function: String::new(),
        labels: HashSet::new(),
        out: vec![],
    };
    for ext in &p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            let name = function_name(&f.node).unwrap_or("?");
            if is_model_function(name) {
                continue;
            }
            c.function = name.to_string();
            c.labels.clear();
            c.stmt(&f.node.statement);
        }
    }
    for (k, code) in p.code.iter().enumerate() {
        // After `lazy` the slot functions are in the unit again (checked above).
        if in_unit.contains(&slot_function(k)) {
            continue;
        }
        c.function = slot_function(k);
        c.labels.clear();
        let items: Vec<Node<BlockItem>> = code
            .items
            .iter()
            .map(|it| match it {
                Item::Visible { stmt, .. } | Item::Plain(stmt) => item(stmt.clone()),
                Item::Label(l, span) => item(labeled(l, empty_stmt(*span), *span)),
                Item::Decl(d) => decl_item(d.clone()),
            })
            .collect();
        c.block(&items, false);
    }
    if which.contains(&UniqueNames) {
        let slot_declarations = p.code.iter().flat_map(|code| {
            code.items.iter().filter_map(|it| match it {
                Item::Decl(d) => Some(d),
                _ => None,
            })
        });
        for name in crate::hygiene::duplicates(&p.unit, slot_declarations) {
            c.out.push(Violation {
                invariant: UniqueNames,
                function: String::new(),
                span: Span::none(),
                message: format!("`{name}` is declared more than once"),
            });
        }
    }
    c.out
}

/// The violations of `which` in one function body (calls of defined functions are not
/// checked: the body alone does not say which functions are defined).
pub fn check_body(body: &Node<Statement>, which: &[Invariant]) -> Vec<Violation> {
    let mut c = Checker {
        which,
        defined: HashSet::new(),
        function: String::new(),
        labels: HashSet::new(),
        out: vec![],
    };
    c.stmt(body);
    c.out
}

/// The normal form on a unit's function bodies: the first violation.
pub fn check_normal_form(unit: &TranslationUnit) -> Result<(), Violation> {
    first(unit, NORMAL_FORM)
}

/// The bounded-program guarantees (no loops, no backward gotos, no calls of defined
/// functions) on a unit's function bodies: the first violation.
pub fn check_bounded(p: &Program) -> Result<(), Violation> {
    match check(p, &[Loop, BackwardGoto, CallOfDefinedFunction])
        .into_iter()
        .next()
    {
        None => Ok(()),
        Some(v) => Err(v),
    }
}

fn first(unit: &TranslationUnit, which: &[Invariant]) -> Result<(), Violation> {
    // The program is only read; `Program::new` needs it by value.
    let p = Program::new(unit.clone());
    match check(&p, which).into_iter().next() {
        None => Ok(()),
        Some(v) => Err(v),
    }
}

struct Checker<'a> {
    which: &'a [Invariant],
    /// Functions with a body (the unit's and the slot functions of `Program::code`).
    defined: HashSet<String>,
    function: String,
    /// Labels seen so far in the function's text (a goto to one of them goes backward).
    labels: HashSet<String>,
    out: Vec<Violation>,
}

impl Checker<'_> {
    fn report(&mut self, invariant: Invariant, span: Span, message: String) {
        if self.which.contains(&invariant) {
            self.out.push(Violation {
                invariant,
                function: self.function.clone(),
                span,
                message,
            });
        }
    }

    /// Calls of defined functions evaluated by `e` (not under `sizeof`/`typeof`).
    fn calls(&mut self, e: &Node<Expression>) {
        if !self.which.contains(&CallOfDefinedFunction) {
            return;
        }
        struct Calls<'a>(&'a HashSet<String>, Vec<(String, Span)>);
        impl Visitor for Calls<'_> {
            type Error = Infallible;
            const UNEVALUATED: bool = false;
            fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
                if let Expression::Call(c) = &e.node {
                    if let Some(n) = callee_name(&c.node) {
                        if self.0.contains(n)
                            && !kept_call(n)
                            && !is_model_function(n)
                            && !is_slot_function(n)
                        {
                            self.1.push((n.to_string(), e.span));
                        }
                    }
                }
                Ok(Walk::Descend)
            }
            fn type_name(&mut self, _t: &Node<TypeName>) -> Result<Walk, Infallible> {
                Ok(Walk::Skip)
            }
        }
        let mut v = Calls(&self.defined, vec![]);
        let Ok(()) = visit::expr(&mut v, e);
        for (n, span) in v.1 {
            self.report(
                CallOfDefinedFunction,
                span,
                format!("call of defined function `{n}` left"),
            );
        }
    }

    /// A condition or return value: N2, N6.
    fn pure(&mut self, e: &Node<Expression>, inv: Invariant, what: &str) {
        if effect(e) {
            self.report(
                inv,
                e.span,
                format!("side effect in {what}: `{}`", show(&e.node)),
            );
        }
        self.forbidden(e);
        self.calls(e);
    }

    /// N6: `e` is a call of an error function or `__VERIFIER_assume`.
    fn forbidden(&mut self, e: &Node<Expression>) {
        if let Expression::Call(c) = &e.node {
            if let Some(n) = callee_name(&c.node) {
                if ERROR_FUNCTIONS.contains(&n) || n == abi::VERIFIER_ASSUME {
                    self.report(N6, e.span, format!("call of `{n}` remains"));
                }
            }
        }
    }

    fn expr_stmt(&mut self, e: &Node<Expression>) {
        self.forbidden(e);
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                self.pure(&b.node.lhs, N3, "an assigned lvalue");
                match &b.node.rhs.node {
                    Expression::Call(c) if b.node.operator.node == BinaryOperator::Assign => {
                        self.forbidden(&b.node.rhs);
                        self.call(&c.node);
                        self.calls(&b.node.rhs);
                    }
                    // `t = (T) __ladr_fresh_block()`: `threads`' object for the result of
                    // a function without a body that returns a pointer.
                    Expression::Cast(x)
                        if b.node.operator.node == BinaryOperator::Assign
                            && matches!(x.node.expression.node, Expression::Call(_)) =>
                    {
                        if let Expression::Call(c) = &x.node.expression.node {
                            self.forbidden(&x.node.expression);
                            self.call(&c.node);
                            self.calls(&x.node.expression);
                        }
                    }
                    // `t = va_arg(ap, T)`, until `inline` rewrites it.
                    Expression::VaArg(v) if b.node.operator.node == BinaryOperator::Assign => {
                        self.pure(&v.node.va_list, N3, "a `va_arg` list")
                    }
                    _ => self.pure(&b.node.rhs, N3, "an assigned value"),
                }
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.pure(&u.node.operand, N3, "an incremented lvalue")
            }
            Expression::Call(c) => {
                self.call(&c.node);
                self.calls(e);
            }
            _ => self.pure(e, N3, "an expression statement"),
        }
    }

    /// The callee and the arguments of a top-level call (N3).
    fn call(&mut self, c: &CallExpression) {
        for e in std::iter::once(&*c.callee).chain(c.arguments.iter()) {
            if effect(e) {
                let what = if std::ptr::eq(e, &*c.callee) {
                    "a callee"
                } else {
                    "a call argument"
                };
                self.report(
                    N3,
                    e.span,
                    format!("side effect in {what}: `{}`", show(&e.node)),
                );
            }
            self.forbidden(e);
        }
    }

    fn block(&mut self, items: &[Node<BlockItem>], in_atomic: bool) {
        for (k, it) in items.iter().enumerate() {
            match &it.node {
                BlockItem::Declaration(d) => self.declaration(d, &items[k + 1..]),
                BlockItem::StaticAssert(_) => {}
                BlockItem::Statement(s) => {
                    let is_begin = called(it) == Some(abi::ATOMIC_BEGIN);
                    let is_end = called(it) == Some(abi::ATOMIC_END);
                    if is_begin && !(in_atomic && k == 0) {
                        self.report(
                            N5,
                            s.span,
                            format!("`{}` does not start a block", abi::ATOMIC_BEGIN),
                        );
                    }
                    if is_end && !(in_atomic && k + 1 == items.len()) {
                        self.report(
                            N5,
                            s.span,
                            format!("`{}` does not end a block", abi::ATOMIC_END),
                        );
                    }
                    if !is_begin && !is_end {
                        self.stmt(s);
                    }
                }
            }
        }
    }

    /// N4 for a block-scope declaration followed by `rest`; calls in its initialisers.
    fn declaration(&mut self, d: &Node<Declaration>, rest: &[Node<BlockItem>]) {
        for id in &d.node.declarators {
            if let Some(i) = &id.node.initializer {
                self.initializer_calls(&i.node);
            }
        }
        let span = d.span;
        let d = &d.node;
        if is_typedef(d)
            || has_storage(d, StorageClassSpecifier::Extern)
            || has_storage(d, StorageClassSpecifier::Static)
            || has_storage(d, StorageClassSpecifier::ThreadLocal)
        {
            return;
        }
        for id in &d.declarators {
            let dd = &id.node.declarator.node;
            if matches!(
                dd.derived.first().map(|x| &x.node),
                Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_))
            ) && !matches!(dd.kind.node, DeclaratorKind::Declarator(_))
            {
                continue;
            }
            let Some(name) = declarator_name(dd) else {
                continue;
            };
            match &id.node.initializer {
                Some(i) => {
                    let ok = is_array_declarator(dd) && !init_has_effect(&i.node);
                    if !ok {
                        self.report(N4, span, format!("local `{name}` has an initialiser"));
                    }
                }
                None if names::is_temporary(name) => {}
                None => {
                    // havoc, or the assignment that replaced its initialiser
                    if !rest.iter().any(|n| defines(n, name)) {
                        self.report(
                            N4,
                            span,
                            format!(
                                "uninitialised local `{name}` is not followed by {}",
                                abi::HAVOC
                            ),
                        );
                    }
                }
            }
        }
    }

    fn initializer_calls(&mut self, i: &Initializer) {
        match i {
            Initializer::Expression(e) => self.calls(e),
            Initializer::List(l) => {
                for it in l {
                    self.initializer_calls(&it.node.initializer.node);
                }
            }
        }
    }

    fn stmt(&mut self, s: &Node<Statement>) {
        match &s.node {
            Statement::Compound(items) => {
                let atomic = items.first().and_then(called) == Some(abi::ATOMIC_BEGIN)
                    && items.last().and_then(called) == Some(abi::ATOMIC_END);
                self.block(items, atomic)
            }
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Identifier(i) => {
                        self.labels.insert(i.node.name.clone());
                    }
                    _ => self.report(N1, s.span, "`case`/`default` label remains".into()),
                }
                self.stmt(&l.node.statement)
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => {
                if matches!(
                    called_name(&e.node),
                    Some(abi::ATOMIC_BEGIN | abi::ATOMIC_END)
                ) {
                    self.report(N5, s.span, "atomic section marker outside a block".into());
                    return;
                }
                self.expr_stmt(e)
            }
            Statement::If(i) => {
                self.pure(&i.node.condition, N2, "an `if` condition");
                self.stmt(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e);
                }
            }
            Statement::While(w) => {
                self.report(Loop, s.span, "`while` loop left".into());
                self.pure(&w.node.expression, N2, "a `while` condition");
                self.stmt(&w.node.statement)
            }
            Statement::Switch(sw) => {
                self.report(N1, s.span, "`switch` remains".into());
                self.stmt(&sw.node.statement)
            }
            Statement::DoWhile(d) => {
                self.report(N1, s.span, "`do` remains".into());
                self.report(Loop, s.span, "`do` loop left".into());
                self.stmt(&d.node.statement)
            }
            Statement::For(f) => {
                self.report(N1, s.span, "`for` remains".into());
                self.report(Loop, s.span, "`for` loop left".into());
                self.stmt(&f.node.statement)
            }
            Statement::Break => self.report(N1, s.span, "`break` remains".into()),
            Statement::Continue => self.report(N1, s.span, "`continue` remains".into()),
            Statement::Return(Some(e)) => self.pure(e, N2, "a `return` value"),
            Statement::Goto(l) => {
                if self.labels.contains(&l.node.name) {
                    self.report(
                        BackwardGoto,
                        s.span,
                        format!("backward goto {} left", l.node.name),
                    );
                }
            }
            Statement::Return(None) | Statement::Asm(_) => {}
        }
    }
}

fn show(e: &Expression) -> String {
    ladr_c::print::expr_to_string(e)
}

fn called_name(e: &Expression) -> Option<&str> {
    match e {
        Expression::Call(c) => callee_name(&c.node),
        _ => None,
    }
}

/// `__CPROVER_havoc_object(&name);` or `name = …;`.
fn defines(it: &Node<BlockItem>, name: &str) -> bool {
    let BlockItem::Statement(s) = &it.node else {
        return false;
    };
    // a declaration moved in front of an atomic section is assigned inside it
    if let Statement::Compound(items) = &s.node {
        return items.iter().any(|i| defines(i, name));
    }
    let Statement::Expression(Some(e)) = &s.node else {
        return false;
    };
    match &e.node {
        Expression::Call(_) => havoced_var(&e.node) == Some(name),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            matches!(&b.node.lhs.node, Expression::Identifier(i) if i.node.name == name)
        }
        _ => false,
    }
}

fn init_has_effect(i: &Initializer) -> bool {
    match i {
        Initializer::Expression(e) => effect(e),
        Initializer::List(l) => l
            .iter()
            .any(|it| init_has_effect(&it.node.initializer.node)),
    }
}

/// A side effect for the normal form: an assignment, increment, statement expression or
/// call, except a call of one of the pure builtins (`abi::PURE_BUILTINS`); not under
/// `sizeof`/`_Alignof`.
fn effect(e: &Node<Expression>) -> bool {
    struct Finder;
    impl Visitor for Finder {
        /// Found one.
        type Error = ();
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, ()> {
            match &e.node {
                Expression::Call(c)
                    if callee_name(&c.node).is_some_and(|n| abi::PURE_BUILTINS.contains(&n)) =>
                {
                    for a in &c.node.arguments {
                        visit::expr(self, a)?;
                    }
                    Ok(Walk::Skip)
                }
                Expression::Call(_) | Expression::Statement(_) => Err(()),
                Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => Err(()),
                Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
        fn type_name(&mut self, _t: &Node<TypeName>) -> Result<Walk, ()> {
            Ok(Walk::Skip)
        }
    }
    visit::expr(&mut Finder, e).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").unwrap();
        Program::new(unit)
    }

    fn kinds(p: &Program, which: &[Invariant]) -> Vec<Invariant> {
        check(p, which).into_iter().map(|v| v.invariant).collect()
    }

    #[test]
    fn unnormalised_code_breaks_n1_n2_n3_n4() {
        let p = program(
            "int g(void);
             void f(int x) { int y = g(); for (;;) break; if (g()) x = (x++) + 1; }",
        );
        let vs = check(&p, NORMAL_FORM);
        let got: Vec<Invariant> = vs.iter().map(|v| v.invariant).collect();
        assert_eq!(got, vec![N4, N1, N1, N2, N3], "{vs:?}");
        assert!(vs.iter().all(|v| v.function == "f" && !v.span.is_none()));
        assert!(check_normal_form(&p.unit).is_err());
    }

    #[test]
    fn normalised_code_keeps_the_normal_form() {
        let p = program(
            "int g(void);
             void f(int x) { int y = g(); for (;;) break; if (g()) x = (x++) + 1; }",
        );
        let p = crate::passes::normalise::run(p, &Default::default()).unwrap();
        assert_eq!(kinds(&p, NORMAL_FORM), vec![]);
    }

    #[test]
    fn backward_gotos_and_calls_of_defined_functions() {
        let p = program("void g(void) {} void f(void) { L: g(); goto L; }");
        assert_eq!(
            kinds(&p, BOUNDED),
            vec![CallOfDefinedFunction, BackwardGoto]
        );
        assert!(check_bounded(&p).is_err());
    }

    #[test]
    fn pure_builtins_are_no_side_effects() {
        let src = format!(
            "int g(void); void f(int *p) {{ if ({}(p, 4) && {}(p) == 0) g(); if (g()) ; }}",
            abi::W_OK,
            abi::POINTER_OFFSET
        );
        let vs = check(&program(&src), NORMAL_FORM);
        assert_eq!(vs.len(), 1, "{vs:?}");
        assert!(vs[0].message.contains("g()"), "{vs:?}");
    }

    #[test]
    fn model_functions_are_left_out() {
        let src = format!(
            "void {}(void) {{ for (int i = 0; i < 4; i++) ; }}",
            abi::model_function("f")
        );
        assert_eq!(kinds(&program(&src), BOUNDED), vec![]);
    }
}
