//! Library mode: the harness ladr generates for a library with no `main` of the user's
//! (`ladr FILE --entry f --entry g`, `[[harness]] entries = [...]`).
//!
//! The harness is built as AST (the printer writes it like any other code); its only
//! variable parts are the names of functions defined in the program, looked up in the
//! syntax tree, and copies of their parameters' type specifiers. It is:
//!
//! ```c
//! void *__ladr_entry_f(void *__ladr_0_arg) {   // one per entry; reports say `f`
//!     int __ladr_0_n;                            // arithmetic: any value (N4's havoc)
//!     struct q __ladr_0_q = {0};                 // pointee: a fresh object, zeroed
//!     char __ladr_0_s[4];                        // char * / void *: a fresh buffer
//!     f(__ladr_0_n, &__ladr_0_q, __ladr_0_s);
//!     return 0;
//! }
//! int main(void) {
//!     init();                                    // --init, alone, before any thread
//!     pthread_t t0, t1;
//!     pthread_create(&t0, 0, __ladr_entry_f, 0);
//!     pthread_create(&t1, 0, __ladr_entry_g, 0);
//!     pthread_join(t0, 0); pthread_join(t1, 0);
//!     return 0;
//! }
//! ```
//!
//! With `share_args`, the pointees are file-scope objects, one per pointee type (spelled
//! the same), which every entry receives — and the `--init` function first, which may then
//! take parameters (`queue_init(&shared1)` before `queue_push(&shared1, …)`). A program with its own `main` keeps it under
//! another name ([`names::USER_MAIN`]), not run; one that calls `main` is refused.
//! Pure: a function from a parsed program to a parsed program.

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::frontend::Parsed;
use ladr_c::syntax::build::*;
use ladr_c::syntax::names;
use ladr_c::syntax::query::{any_stmt, for_each_expr, InExpressions, Operands};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

/// Bytes of the buffer a `char *` or `void *` argument points to.
pub const BUFFER_BYTES: u64 = 4;

/// What the harness runs.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// Entry functions, each on its own thread, in this order (a name twice: two threads).
    pub entries: Vec<String>,
    /// A function of no parameters `main` calls first, alone.
    pub init: Option<String>,
    /// Pointer arguments of one pointee type point to one object all entries share.
    pub share_args: bool,
}

/// The program with the generated harness, and what the harness takes for granted.
pub struct Harness {
    pub parsed: Parsed,
    /// Sentences for the answer's `assumptions`.
    pub assumptions: Vec<String>,
}

/// How an argument is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arg {
    /// A value of arithmetic type: any value.
    Any,
    /// A value of struct or union type: zeroed.
    Zeroed,
    /// A pointer to a fresh object of arithmetic type (any value).
    ToAny,
    /// A pointer to a fresh zeroed object (struct, union, a pointer typedef).
    ToZeroed,
    /// A pointer to a pointer: the pointee a null pointer.
    ToNull,
    /// A `char *` / `void *`: a buffer of [`BUFFER_BYTES`] bytes, any contents.
    ToBuffer,
}

/// The shape of a type named by specifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Arithmetic,
    Char,
    Void,
    Record { defined: bool },
    Pointer,
    Other,
}

/// Whether `s` is a C identifier ladr may name (not one of its reserved names).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !names::is_generated(s)
}

/// The file-scope definition of function `name` (a linker-renamed `static` found by its
/// user name when that is unambiguous).
fn definition<'a>(unit: &'a TranslationUnit, name: &str) -> Option<&'a FunctionDefinition> {
    let defs = || {
        unit.0.iter().filter_map(|d| match &d.node {
            ExternalDeclaration::FunctionDefinition(f) => Some(&f.node),
            _ => None,
        })
    };
    if let Some(f) = defs().find(|f| function_name(f) == Some(name)) {
        return Some(f);
    }
    let mut renamed = defs().filter(|f| function_name(f).map(names::original_name) == Some(name));
    match (renamed.next(), renamed.next()) {
        (Some(f), None) => Some(f),
        _ => None,
    }
}

/// The error for a name that is no function defined in the program.
fn not_defined(unit: &TranslationUnit, name: &str, what: &str) -> Error {
    for d in &unit.0 {
        if let ExternalDeclaration::Declaration(decl) = &d.node {
            for id in &decl.node.declarators {
                if declarator_name(&id.node.declarator.node) == Some(name) {
                    return if is_function_declarator(&id.node.declarator.node) {
                        Error::new(
                            ErrorKind::Usage,
                            format!(
                                "{what} `{name}` is declared but not defined in the files given"
                            ),
                        )
                        .at(id.node.declarator.span, "declared here")
                        .note("add the file that defines it")
                    } else {
                        Error::new(
                            ErrorKind::Usage,
                            format!("{what} `{name}` is not a function"),
                        )
                        .at(id.node.declarator.span, "declared here")
                    };
                }
            }
        }
    }
    Error::new(
        ErrorKind::Usage,
        format!("{what} `{name}`: no function of that name in the files given"),
    )
}

/// The parameters of a definition; variadic and K&R functions refused.
fn parameters<'a>(f: &'a FunctionDefinition, name: &str) -> Result<Vec<&'a ParameterDeclaration>> {
    let span = f.declarator.span;
    let derived = f.declarator.node.derived.iter().find(|d| {
        matches!(
            d.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    });
    let Some(Node {
        node: DerivedDeclarator::Function(fd),
        ..
    }) = derived
    else {
        return Err(Error::unsupported(
            span,
            format!("`{name}` as an entry: a function with an old-style (K&R) parameter list"),
        ));
    };
    if fd.node.ellipsis == Ellipsis::Some {
        return Err(
            Error::unsupported(span, format!("`{name}` as an entry: a variadic function"))
                .note("ladr cannot choose how many arguments to pass: write a harness"),
        );
    }
    let ps: Vec<&ParameterDeclaration> = fd.node.parameters.iter().map(|p| &p.node).collect();
    let void_only = ps.len() == 1
        && ps[0].declarator.is_none()
        && ps[0].specifiers.len() == 1
        && matches!(
            &ps[0].specifiers[0].node,
            DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void
        );
    Ok(if void_only { vec![] } else { ps })
}

/// Finds whether a struct or union tag has a definition.
struct Defined<'a> {
    kind: &'a StructKind,
    tag: &'a str,
    found: bool,
}

impl Visitor for Defined<'_> {
    type Error = Infallible;
    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> std::result::Result<Walk, Infallible> {
        if let TypeSpecifier::Struct(s) = &t.node {
            if s.node.kind.node == *self.kind
                && s.node.declarations.is_some()
                && s.node.identifier.as_ref().map(|i| i.node.name.as_str()) == Some(self.tag)
            {
                self.found = true;
            }
        }
        Ok(Walk::Descend)
    }
}

/// The shape of the type named by `specs` (typedefs followed up to 16 deep).
fn shape(unit: &TranslationUnit, specs: &[&TypeSpecifier], depth: u32) -> Shape {
    let mut out = Shape::Other;
    for t in specs {
        out = match t {
            TypeSpecifier::Void => return Shape::Void,
            TypeSpecifier::Char => return Shape::Char,
            TypeSpecifier::Struct(s) => {
                let defined = s.node.declarations.is_some()
                    || s.node.identifier.as_ref().is_some_and(|i| {
                        let mut v = Defined {
                            kind: &s.node.kind.node,
                            tag: &i.node.name,
                            found: false,
                        };
                        let Ok(()) = visit::unit(&mut v, unit);
                        v.found
                    });
                return Shape::Record { defined };
            }
            TypeSpecifier::TypedefName(n) if depth < 16 => {
                return typedef_shape(unit, &n.node.name, depth + 1)
            }
            TypeSpecifier::Enum(_)
            | TypeSpecifier::Short
            | TypeSpecifier::Int
            | TypeSpecifier::Long
            | TypeSpecifier::Float
            | TypeSpecifier::Double
            | TypeSpecifier::Signed
            | TypeSpecifier::Unsigned
            | TypeSpecifier::Bool => Shape::Arithmetic,
            _ => return Shape::Other,
        };
    }
    out
}

/// The shape of typedef `name`.
fn typedef_shape(unit: &TranslationUnit, name: &str, depth: u32) -> Shape {
    for d in &unit.0 {
        let ExternalDeclaration::Declaration(decl) = &d.node else {
            continue;
        };
        if !is_typedef(&decl.node) {
            continue;
        }
        for id in &decl.node.declarators {
            let dd = &id.node.declarator.node;
            if declarator_name(dd) != Some(name) {
                continue;
            }
            return match dd.derived.first().map(|x| &x.node) {
                None if matches!(dd.kind.node, DeclaratorKind::Identifier(_)) => {
                    shape(unit, &type_specifiers(&decl.node.specifiers), depth)
                }
                Some(DerivedDeclarator::Pointer(_)) => Shape::Pointer,
                _ => Shape::Other,
            };
        }
    }
    Shape::Other
}

/// How argument `p` (number `k`) of entry `f` is made.
fn classify(unit: &TranslationUnit, f: &str, k: usize, p: &ParameterDeclaration) -> Result<Arg> {
    let span = p.declarator.as_ref().map_or(Span::none(), |d| d.span);
    let refuse = |what: &str| {
        Err(Error::unsupported(
            span,
            format!("argument {} of entry `{f}`: {what}", k + 1),
        )
        .note("ladr's generated harness cannot choose a value for it: write a harness with `main`"))
    };
    let derived: Vec<&DerivedDeclarator> = match &p.declarator {
        None => vec![],
        Some(d) => {
            if matches!(d.node.kind.node, DeclaratorKind::Declarator(_)) {
                return refuse("a function pointer or a pointer to an array");
            }
            d.node.derived.iter().map(|x| &x.node).collect()
        }
    };
    let specs = type_specifiers(&p.specifiers);
    let pointee = shape(unit, &specs, 0);
    let pointer_like = |x: &&DerivedDeclarator| {
        matches!(
            x,
            DerivedDeclarator::Pointer(_) | DerivedDeclarator::Array(_)
        )
    };
    if !derived.iter().all(pointer_like) {
        return refuse("a function type");
    }
    Ok(match (derived.len(), pointee) {
        (0, Shape::Arithmetic | Shape::Char) => Arg::Any,
        (0, Shape::Record { .. }) => Arg::Zeroed,
        (0, Shape::Pointer) => return refuse("a pointer type behind a typedef"),
        (0, _) => return refuse("a type ladr's harness cannot make a value of"),
        (1, Shape::Char | Shape::Void) => Arg::ToBuffer,
        (1, Shape::Arithmetic) => Arg::ToAny,
        (1, Shape::Record { defined: false }) => {
            return refuse(
                "a pointer to a struct or union whose definition is not in the files given",
            )
        }
        (1, Shape::Record { .. } | Shape::Pointer) => Arg::ToZeroed,
        (1, Shape::Other) => return refuse("a pointer to a type ladr's harness cannot make"),
        (
            _,
            Shape::Void | Shape::Char | Shape::Arithmetic | Shape::Record { .. } | Shape::Pointer,
        ) => Arg::ToNull,
        _ => return refuse("a type ladr's harness cannot make a value of"),
    })
}

/// The specifiers of an object of a parameter's (pointee) type, or of a function's
/// return type: its type specifiers, without qualifiers and storage classes.
fn object_specifiers(specifiers: &[Node<DeclarationSpecifier>]) -> Vec<Node<DeclarationSpecifier>> {
    specifiers
        .iter()
        .filter(|s| matches!(s.node, DeclarationSpecifier::TypeSpecifier(_)))
        .cloned()
        .collect()
}

/// `{0}`.
fn zero(span: Span) -> Node<Initializer> {
    node(
        Initializer::List(vec![node(
            InitializerListItem {
                designation: vec![],
                initializer: Box::new(node(Initializer::Expression(Box::new(int(0, span))), span)),
            },
            span,
        )]),
        span,
    )
}

/// The declaration of the object argument `arg` needs (named `name`), and the argument
/// expression that passes it.
fn argument_object(
    p: &ParameterDeclaration,
    arg: Arg,
    name: &str,
    span: Span,
) -> (Node<Declaration>, Node<Expression>) {
    let mut specs = object_specifiers(&p.specifiers);
    let pointer = node(DerivedDeclarator::Pointer(vec![]), span);
    let (specs, derived, init, pass) = match arg {
        Arg::Any => (specs, vec![], None, ident(name, span)),
        Arg::Zeroed => (specs, vec![], Some(zero(span)), ident(name, span)),
        Arg::ToAny => (specs, vec![], None, addr(ident(name, span), span)),
        Arg::ToZeroed => (
            specs,
            vec![],
            Some(zero(span)),
            addr(ident(name, span), span),
        ),
        Arg::ToNull => {
            let inner = p.declarator.as_ref().map_or(0, |d| d.node.derived.len()) - 1;
            let derived = (0..inner).map(|_| pointer.clone()).collect();
            (
                specs,
                derived,
                Some(zero(span)),
                addr(ident(name, span), span),
            )
        }
        Arg::ToBuffer => {
            specs.clear();
            specs.push(spec(TypeSpecifier::Char, span));
            let array = node(
                DerivedDeclarator::Array(node(
                    ArrayDeclarator {
                        qualifiers: vec![],
                        size: ArraySize::VariableExpression(Box::new(int(BUFFER_BYTES, span))),
                    },
                    span,
                )),
                span,
            );
            (specs, vec![array], None, ident(name, span))
        }
    };
    (declaration(specs, name, derived, init, span), pass)
}

/// Generates the harness of `spec` into `parsed`.
pub fn generate(parsed: &Parsed, spec: &Spec) -> Result<Harness> {
    if spec.entries.is_empty() {
        return Err(Error::new(
            ErrorKind::Usage,
            "library mode needs an entry function",
        ));
    }
    let unit = &parsed.unit;
    for (what, n) in spec
        .entries
        .iter()
        .map(|e| ("entry", e))
        .chain(spec.init.iter().map(|i| ("--init", i)))
    {
        if !is_identifier(n) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "{what} `{}` is not the name of a C function",
                    ladr_c::diag::visible(n)
                ),
            ));
        }
    }
    let mut assumptions = vec![];
    let mut out = parsed.clone();
    let had_main = rename_main(&mut out.unit)?;
    if had_main {
        assumptions.push(
            "library mode: the program's own `main` is not run; the generated harness replaces it"
                .to_string(),
        );
    }
    let mut objects = Objects {
        parsed,
        share: spec.share_args,
        shared: vec![],
        globals: vec![],
        kinds: vec![],
    };
    let mut routines: Vec<Node<ExternalDeclaration>> = vec![];
    let mut main_body: Vec<Node<BlockItem>> = vec![];
    if let Some(init) = &spec.init {
        let f = definition(unit, init).ok_or_else(|| not_defined(unit, init, "--init"))?;
        let span = f.declarator.span;
        let params = parameters(f, init)?;
        if !params.is_empty() && !spec.share_args {
            return Err(Error::unsupported(
                span,
                format!(
                    "--init `{init}` takes parameters: name a function of none, or give \
                     --share-args so that it initialises the objects the entries share"
                ),
            ));
        }
        let called = function_name(f).unwrap_or(init).to_string();
        let args = objects.arguments(init, &params, span, &mut main_body)?;
        let mut init_call = call(&called, args, span);
        if spec.share_args && returns_record_pointer(unit, f) {
            // `__ladr_0_handle = init(...)`: entries taking a pointer to that type get it.
            let handle = names::harness_object("handle");
            let key = format!("{:?} {}", Arg::ToZeroed, type_key(parsed, &f.specifiers));
            let specs = object_specifiers(&f.specifiers);
            let pointer = node(DerivedDeclarator::Pointer(vec![]), span);
            let decl = declaration(specs, &handle, vec![pointer], None, span);
            objects
                .globals
                .push(node(ExternalDeclaration::Declaration(decl), span));
            objects.shared.push((key, handle.clone(), true));
            init_call = assign(ident(&handle, span), init_call, span);
        }
        main_body.push(item(expr_stmt(init_call)));
    }
    let mut routines_done: Vec<String> = vec![];
    let mut creates = vec![];
    for (t, e) in spec.entries.iter().enumerate() {
        let f = definition(unit, e).ok_or_else(|| not_defined(unit, e, "entry"))?;
        let real = function_name(f).unwrap_or(e).to_string();
        let span = f.declarator.span;
        let params = parameters(f, e)?;
        let routine = names::entry_routine(&real);
        if !routines_done.contains(&routine) {
            let mut body = vec![];
            let args = objects.arguments(e, &params, span, &mut body)?;
            body.push(item(expr_stmt(call(&real, args, span))));
            body.push(item(ret(Some(int(0, span)), span)));
            routines.push(start_routine(&routine, block(body, span)));
            routines_done.push(routine.clone());
        }
        let tid = names::harness_object(&format!("thread{t}"));
        creates.push((tid, routine, span));
    }
    let tid_type = thread_id_type(unit);
    for (tid, _, _) in &creates {
        main_body.push(decl_item(declaration(
            tid_type.clone(),
            tid,
            vec![],
            None,
            Span::none(),
        )));
    }
    for (tid, routine, span) in &creates {
        let args = vec![
            addr(ident(tid, *span), *span),
            int(0, *span),
            ident(routine, *span),
            int(0, *span),
        ];
        main_body.push(item(expr_stmt(call("pthread_create", args, *span))));
    }
    for (tid, _, _) in &creates {
        let args = vec![ident(tid, Span::none()), int(0, Span::none())];
        main_body.push(item(expr_stmt(call("pthread_join", args, Span::none()))));
    }
    main_body.push(item(ret(Some(int(0, Span::none())), Span::none())));
    let main = function_def("main", TypeSpecifier::Int, block(main_body, Span::none()));
    let Objects { globals, kinds, .. } = objects;
    out.unit.0.extend(globals);
    out.unit.0.extend(routines);
    out.unit.0.push(main);
    assumptions.extend(describe(spec, &kinds));
    Ok(Harness {
        parsed: out,
        assumptions,
    })
}

/// The objects the harness passes to the functions it calls.
struct Objects<'a> {
    parsed: &'a Parsed,
    /// `--share-args`: pointer arguments of one type point to one file-scope object.
    share: bool,
    /// (argument kind and pointee type, the shared object's name, whether that is a
    /// pointer to the object — `--init`'s result — rather than the object).
    shared: Vec<(String, String, bool)>,
    /// The declarations of the shared objects.
    globals: Vec<Node<ExternalDeclaration>>,
    /// The kind of every argument made, for the assumptions.
    kinds: Vec<Arg>,
}

impl Objects<'_> {
    /// The arguments of a call of `function` with `params`: each an object of its own
    /// declared into `locals`, or, for a pointer under `share`, the address of the one
    /// file-scope object of its pointee type.
    fn arguments(
        &mut self,
        function: &str,
        params: &[&ParameterDeclaration],
        span: Span,
        locals: &mut Vec<Node<BlockItem>>,
    ) -> Result<Vec<Node<Expression>>> {
        let mut args = vec![];
        for (k, p) in params.iter().enumerate() {
            let arg = classify(&self.parsed.unit, function, k, p)?;
            self.kinds.push(arg);
            let pname = p
                .declarator
                .as_ref()
                .and_then(|d| declarator_name(&d.node))
                .map_or(format!("arg{}", k + 1), str::to_string);
            let pointer = !matches!(arg, Arg::Any | Arg::Zeroed);
            if self.share && pointer {
                let key = format!("{arg:?} {}", type_key(self.parsed, &p.specifiers));
                match self.shared.iter().find(|(k2, _, _)| *k2 == key) {
                    Some((_, n, true)) => args.push(ident(n, span)),
                    Some((_, n, false)) => args.push(argument_object(p, arg, n, span).1),
                    None => {
                        let n = names::harness_object(&format!("shared{}", self.shared.len() + 1));
                        self.shared.push((key, n.clone(), false));
                        let (decl, pass) = argument_object(p, arg, &n, span);
                        self.globals
                            .push(node(ExternalDeclaration::Declaration(decl), span));
                        args.push(pass);
                    }
                }
            } else {
                let name = names::harness_object(&pname);
                let (decl, pass) = argument_object(p, arg, &name, span);
                locals.push(decl_item(decl));
                args.push(pass);
            }
        }
        Ok(args)
    }
}

/// `pthread_t` where the program declares it, else `unsigned long` (glibc's).
fn thread_id_type(unit: &TranslationUnit) -> Vec<Node<DeclarationSpecifier>> {
    let none = Span::none();
    if typedef_shape(unit, "pthread_t", 0) == Shape::Other {
        vec![
            spec(TypeSpecifier::Unsigned, none),
            spec(TypeSpecifier::Long, none),
        ]
    } else {
        vec![spec(
            TypeSpecifier::TypedefName(id("pthread_t", none)),
            none,
        )]
    }
}

/// The text of type specifiers (whitespace collapsed, qualifiers left out), which decides
/// which arguments share an object under `share_args`.
fn type_key(parsed: &Parsed, specifiers: &[Node<DeclarationSpecifier>]) -> String {
    specifiers
        .iter()
        .filter(|s| matches!(s.node, DeclarationSpecifier::TypeSpecifier(_)))
        .map(|s| {
            parsed
                .text
                .get(s.span.start..s.span.end)
                .unwrap_or("?")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether function `f` returns a pointer to a struct or union defined in the program: a
/// constructor, whose result `--init` makes the shared object of that type.
fn returns_record_pointer(unit: &TranslationUnit, f: &FunctionDefinition) -> bool {
    let d = &f.declarator.node;
    let pointers = d.derived.len().saturating_sub(1);
    pointers == 1
        && matches!(d.kind.node, DeclaratorKind::Identifier(_))
        && matches!(
            d.derived.first().map(|x| &x.node),
            Some(DerivedDeclarator::Pointer(_))
        )
        && matches!(
            shape(unit, &type_specifiers(&f.specifiers), 0),
            Shape::Record { defined: true }
        )
}

/// `void *name(void *__ladr_0_arg) body`.
fn start_routine(name: &str, body: Node<Statement>) -> Node<ExternalDeclaration> {
    let span = Span::none();
    let mut def = function_def(name, TypeSpecifier::Void, body);
    if let ExternalDeclaration::FunctionDefinition(f) = &mut def.node {
        let d = &mut f.node.declarator.node;
        d.derived
            .insert(0, node(DerivedDeclarator::Pointer(vec![]), span));
        if let Some(DerivedDeclarator::Function(fd)) = d.derived.last_mut().map(|x| &mut x.node) {
            let p = &mut fd.node.parameters[0].node;
            p.declarator = Some(node(
                Declarator {
                    kind: node(
                        DeclaratorKind::Identifier(id(&names::harness_object("arg"), span)),
                        span,
                    ),
                    derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                    extensions: vec![],
                },
                span,
            ));
        }
    }
    def
}

/// Renames a definition of `main` (and its file-scope declarations) to
/// [`names::USER_MAIN`]; a program that calls or takes `main` is refused. Whether there
/// was one.
fn rename_main(unit: &mut TranslationUnit) -> Result<bool> {
    struct Mentions(Option<Span>);
    impl Visitor for Mentions {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if ident_name(e) == Some("main") {
                self.0.get_or_insert(e.span);
            }
            Ok(Walk::Descend)
        }
    }
    let mut m = Mentions(None);
    let Ok(()) = visit::unit(&mut m, unit);
    if let Some(span) = m.0 {
        return Err(Error::unsupported(
            span,
            "library mode with a program that uses its own `main`",
        )
        .note("ladr's harness replaces `main`: check the program as it is, without --entry"));
    }
    let mut found = false;
    for d in &mut unit.0 {
        let declarator = match &mut d.node {
            ExternalDeclaration::FunctionDefinition(f) => Some(&mut f.node.declarator.node),
            ExternalDeclaration::Declaration(decl) => decl
                .node
                .declarators
                .iter_mut()
                .map(|i| &mut i.node.declarator.node)
                .find(|x| declarator_name(x) == Some("main")),
            ExternalDeclaration::StaticAssert(_) => None,
        };
        if let Some(id) = declarator.and_then(declarator_name_mut) {
            if id.name == "main" {
                id.name = names::USER_MAIN.to_string();
                found |= matches!(d.node, ExternalDeclaration::FunctionDefinition(_));
            }
        }
    }
    Ok(found)
}

/// What the harness takes for granted, in the answer's words.
fn describe(spec: &Spec, kinds: &[Arg]) -> Vec<String> {
    let mut out = vec![];
    let list = spec
        .entries
        .iter()
        .map(|e| format!("`{e}`"))
        .collect::<Vec<_>>()
        .join(", ");
    out.push(format!(
        "library mode: a generated `main` {}then runs {list}, each once on its own thread, \
         with the globals as their initialisers leave them, and joins them",
        spec.init
            .as_ref()
            .map_or(String::new(), |i| format!("calls `{i}` alone, "))
    ));
    let has = |a: Arg| kinds.contains(&a);
    let fresh = !spec.share_args;
    if has(Arg::Any) || fresh && (has(Arg::ToAny) || has(Arg::ToBuffer)) {
        out.push("arguments of arithmetic type (and the objects arithmetic pointers point to) take any value of their type".into());
    }
    if has(Arg::ToBuffer) {
        out.push(format!(
            "a `char *` or `void *` argument points to a buffer of {BUFFER_BYTES} bytes{}",
            if fresh { " of any contents" } else { "" }
        ));
    }
    if has(Arg::Zeroed) || has(Arg::ToZeroed) {
        out.push("struct and union arguments, and the struct, union and pointer objects pointer arguments point to, start zeroed (their pointers null)".into());
    }
    if has(Arg::ToNull) {
        out.push("a pointer to a pointer points to a null pointer".into());
    }
    let pointers = kinds.iter().any(|a| !matches!(a, Arg::Any | Arg::Zeroed));
    if pointers {
        out.push(if spec.share_args {
            format!(
                "--share-args: pointer arguments of the same type point to one object all the entries share, {}",
                if spec.init.is_some() {
                    "zeroed at the start, then as `--init` leaves it (an `--init` that returns a pointer to a struct gives the object of that type)"
                } else {
                    "zeroed at the start"
                }
            )
        } else {
            "each thread's pointer arguments point to fresh objects of its own, which no other thread sees".into()
        });
    }
    out
}

/// Every function of the program's files that is exported: defined, not `static`, not
/// `inline`, not `main`, with a fixed parameter list, defined in one of `files` (by the
/// source map; all files when empty), in the order of the program.
pub fn exported(parsed: &Parsed, files: &[String]) -> Vec<String> {
    let mut out = vec![];
    for d in &parsed.unit.0 {
        let ExternalDeclaration::FunctionDefinition(f) = &d.node else {
            continue;
        };
        let Some(name) = function_name(&f.node) else {
            continue;
        };
        let is_static = storage_of(&f.node.specifiers).contains(&StorageClassSpecifier::Static);
        let inline = f
            .node
            .specifiers
            .iter()
            .any(|s| matches!(s.node, DeclarationSpecifier::Function(_)));
        let file = parsed.map.lookup(f.span.start).file;
        if is_static
            || inline
            || name == "main"
            || names::is_generated(name)
            || (!files.is_empty() && !files.contains(&file))
            || !parameters(&f.node, name).is_ok_and(|ps| {
                ps.iter()
                    .enumerate()
                    .all(|(k, p)| classify(&parsed.unit, name, k, p).is_ok())
            })
            || out.iter().any(|o| o == name)
        {
            continue;
        }
        out.push(name.to_string());
    }
    out
}

/// The pairs of `functions` (each with itself and with every later one), at most `max`:
/// first the pairs that can share the library's state (both name a common file-scope
/// object or a function's `static` local, themselves or through the functions they call —
/// [`state_of_functions`]), then the others; within each, every function with itself
/// first, then each with the next, the one after, … — so a bound smaller than all pairs
/// still covers every function (the order of the program would spend it all on the first
/// function's pairs). How many were left out.
pub fn pairs(
    unit: &TranslationUnit,
    functions: &[String],
    max: usize,
) -> (Vec<(String, String)>, usize) {
    let state = state_of_functions(unit);
    let none = BTreeSet::new();
    let of = |f: &String| state.get(f).unwrap_or(&none);
    let mut all = vec![];
    for distance in 0..functions.len() {
        for (i, f) in functions.iter().enumerate() {
            if let Some(g) = functions.get(i + distance) {
                all.push((f.clone(), g.clone()));
            }
        }
    }
    // Stable: the distance order stays within each class.
    all.sort_by_key(|(f, g)| of(f).is_disjoint(of(g)));
    let left_out = all.len().saturating_sub(max);
    all.truncate(max);
    (all, left_out)
}

/// What each function defined in `unit` names of the program's state: the file-scope
/// objects its body names and its own `static` locals (as `f::static`), with those of the
/// functions it calls by name, to a fixpoint. An over-approximation by spelling (a local
/// that shadows a global counts as the global): it only orders the pairs of
/// `entries = "auto"`, and pointers the entries are given are not followed.
fn state_of_functions(unit: &TranslationUnit) -> HashMap<String, BTreeSet<String>> {
    let mut objects = HashSet::new();
    let mut defined = HashSet::new();
    for d in &unit.0 {
        match &d.node {
            ExternalDeclaration::Declaration(d) if !is_typedef(&d.node) => {
                for id in &d.node.declarators {
                    let decl = &id.node.declarator.node;
                    if !is_function_declarator(decl) {
                        objects.extend(declarator_name(decl).map(str::to_string));
                    }
                }
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                defined.extend(function_name(&f.node).map(str::to_string));
            }
            _ => {}
        }
    }
    let mut state: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut calls: HashMap<String, BTreeSet<String>> = HashMap::new();
    for d in &unit.0 {
        let ExternalDeclaration::FunctionDefinition(f) = &d.node else {
            continue;
        };
        let Some(name) = function_name(&f.node) else {
            continue;
        };
        let (mut named, mut callees) = (BTreeSet::new(), BTreeSet::new());
        for_each_expr(&f.node.statement, Operands::Evaluated, |e| {
            if let Expression::Identifier(i) = &e.node {
                let n = &i.node.name;
                if objects.contains(n) {
                    named.insert(n.clone());
                } else if defined.contains(n) {
                    callees.insert(n.clone());
                }
            }
        });
        let has_static = any_stmt(&f.node.statement, InExpressions::Enter, |s| {
            matches!(&s.node, Statement::Compound(items) if items.iter().any(|i| {
                matches!(&i.node, BlockItem::Declaration(d)
                    if has_storage(&d.node, StorageClassSpecifier::Static))
            }))
        });
        if has_static {
            named.insert(format!("{name}::static"));
        }
        state.entry(name.to_string()).or_default().extend(named);
        calls.entry(name.to_string()).or_default().extend(callees);
    }
    loop {
        let mut changed = false;
        for (f, callees) in &calls {
            let mut add = BTreeSet::new();
            for c in callees {
                add.extend(state.get(c).into_iter().flatten().cloned());
            }
            let own = state.entry(f.clone()).or_default();
            let before = own.len();
            own.extend(add);
            changed |= own.len() != before;
        }
        if !changed {
            return state;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(src: &str) -> TranslationUnit {
        ladr_c::frontend::parse_text(src, "t.c").unwrap().1
    }

    fn names(pairs: &[(String, String)]) -> Vec<String> {
        pairs.iter().map(|(f, g)| format!("{f}+{g}")).collect()
    }

    #[test]
    fn pairs_cover_every_function_before_the_bound() {
        let fs: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let shared = unit("int x; void a(void){x++;} void b(void){x++;} void c(void){x++;}");
        let (all, left) = pairs(&shared, &fs, 10);
        assert_eq!(names(&all), ["a+a", "b+b", "c+c", "a+b", "b+c", "a+c"]);
        assert_eq!(left, 0);
        let (some, left) = pairs(&shared, &fs, 4);
        assert_eq!(some.len(), 4);
        assert_eq!(left, 2);
    }

    #[test]
    fn pairs_that_share_state_come_first() {
        // a and c share `x` (c through a helper), b shares nothing, d has a static local.
        let u = unit(
            "int x; int y; static void helper(void){x = 1;}\n\
             void a(void){x++;} void b(int *p){*p = 1;} void c(void){helper();}\n\
             void d(void){static int n; n++;} void e(void){y = 2;}",
        );
        let fs: Vec<String> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (all, left) = pairs(&u, &fs, 5);
        assert_eq!(names(&all), ["a+a", "c+c", "d+d", "e+e", "a+c"]);
        assert_eq!(left, 10);
    }

    #[test]
    fn only_plain_identifiers_name_entries() {
        for ok in ["f", "_f2", "queue_push"] {
            assert!(is_identifier(ok), "{ok}");
        }
        for bad in ["", "2f", "a;b", "f()", "a b", "x\n", "__ladr_entry_f"] {
            assert!(!is_identifier(bad), "{bad:?}");
        }
    }
}
