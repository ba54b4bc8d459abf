//! What the static race proof needs to know of the program's declarations: every
//! variable (global, static or automatic local, parameter) as a [`VarId`] keyed by its
//! declaration, whether its type is surely an array, surely no array or maybe one, whether
//! it holds only arithmetic values (no pointer can hide in it), whether it is `_Atomic` as
//! a whole, and the functions with a body. Every doubt answers on the safe side: "maybe
//! an array", "not arithmetic", "not atomic".

use ladr_c::syntax::build::{
    array_dims, declarator_name, field_type_specifiers, is_arithmetic_keyword, is_array_declarator,
    is_function_declarator, is_pointer_declarator, is_typedef, struct_members,
};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A variable: the index of its declaration in [`Decls::vars`].
pub type VarId = usize;

/// Three answers to "is it an array".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    No,
    Maybe,
    Yes,
}

/// What one declaration says about its variable.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    /// The function it is local to (none: a global).
    pub function: Option<String>,
    /// An automatic local or parameter: one object per call.
    pub automatic: bool,
    /// `_Thread_local` / `__thread`: one object per thread.
    pub thread_local: bool,
    pub array: Tri,
    /// Of arithmetic type: no pointer value can be stored in it.
    pub arithmetic: bool,
    /// `_Atomic` as a whole (an access of the variable itself is atomic).
    pub atomic: bool,
    /// Array dimensions, when known for sure (0: no array).
    pub depth: Option<usize>,
    /// A parameter (its value comes from the caller).
    pub parameter: bool,
    /// A parameter's position (known once the walk has seen it).
    pub position: Option<usize>,
    /// Its type is one array dimension or one pointer of a named base type
    /// ([`super::element::Shape`]).
    pub shape: Option<super::element::Shape>,
    /// Its type is a named base type alone ([`super::element::plain`]).
    pub plain: Option<String>,
    /// A pointer to an arithmetic keyword type (`int *p`): `*p`, `p[i]` are no arrays.
    pub scalar_pointee: bool,
    /// Such a pointer's pointee type, spelled (its type keywords): two pointers with the
    /// same key index elements of one size ([`super::Step::Base`]).
    pub pointee_key: Option<String>,
    /// Of type `int`, `unsigned`, `long` or `long long` (signed or not, not `_Atomic`):
    /// its arithmetic is modulo its width, with no promotion ([`super::guard`]).
    pub wide_integer: bool,
    /// How many `long`s its type has (0: `int`): a conversion to a type of as many or
    /// more never narrows.
    pub longs: usize,
}

/// The type facts of one declaration's type: array, arithmetic, atomic.
#[derive(Clone, Copy, Debug)]
pub struct TypeFacts {
    pub array: Tri,
    pub arithmetic: bool,
    pub atomic: bool,
    /// Array dimensions, when known for sure (0: no array).
    pub depth: Option<usize>,
}

/// Claim loops' exit tests by address.
pub type ClaimRanges = HashMap<usize, ClaimRange>;

/// What a claim loop's exit test tells of its variable.
#[derive(Clone, Debug)]
pub struct ClaimRange {
    /// The loop variable.
    pub var: String,
    /// Its lowest value, and one past its highest after the test.
    pub lo: i64,
    pub end: ClaimEnd,
    /// The claim loop's id ([`super::Step::Iter`]).
    pub id: usize,
    /// The variable is of a signed type.
    pub signed: bool,
}

/// The end a claim loop's exit test `i < E` (or `i <= E - 1`) gives its variable: a
/// constant `E`, or `v + c` of a local `v` ([`super::values`] may tell its value).
#[derive(Clone, Debug)]
pub enum ClaimEnd {
    Const(i64),
    Name(String, i64),
    /// `E1 * E2`, both printed (a collapsed loop's count of variable value).
    Product(String, String),
    /// Some other expression: the test gives only the lowest value.
    Unknown,
}

/// The program's declarations.
pub struct Decls<'a> {
    pub vars: Vec<Var>,
    /// Globals by name.
    pub globals: HashMap<String, VarId>,
    /// Functions with a body.
    pub bodies: HashMap<String, &'a FunctionDefinition>,
    /// Every declared function name (with or without a body).
    pub functions: HashSet<String>,
    /// The IR's facts (struct members declared as arrays).
    pub ir: ladr_ir::analysis::Vars,
    /// Members that may share memory with another member of their type: members of a
    /// union (or of a struct inside one) and bit-fields (one memory location).
    pub overlapping_fields: HashSet<String>,
    /// Members every struct or union that declares one of that name declares as a
    /// plain arithmetic keyword type without `long` (`int`, `char`, `double`: no `long`,
    /// no pointer, no array, no typedef name): a pointer value gets into one only by a
    /// cast (or its bytes copied), never by assignment (C11 6.5.16.1p1).
    pub arithmetic_fields: HashSet<String>,
    /// The functions a call through a pointer may call: every function whose address the
    /// program takes (none: not known yet, during the discovery's first walk).
    pub function_targets: Option<std::collections::BTreeSet<String>>,
    /// Each function's parameters (how many, variadic), where every declaration of it
    /// says so (a prototype); absent: unknown.
    pub arity: HashMap<String, Option<(usize, bool)>>,
    typedefs: HashMap<String, (&'a [Node<DeclarationSpecifier>], &'a Declarator)>,
    /// The globals that own the blocks they point to ([`super::owned`]).
    pub owned: HashSet<VarId>,
    /// The lock functions the program builds of atomic sections ([`super::userlock`]).
    pub user_locks: HashMap<String, super::userlock::Role>,
    /// Locals whose every value is the address of an element of a global array: the
    /// array ([`super::element`]).
    pub element_pointers: HashMap<VarId, VarId>,
    /// Every write of a variable, by the walks: the array `&a[…]` it was given, when that
    /// is all it was given (none: something else).
    pub element_writes: HashMap<VarId, Option<VarId>>,
    /// Every call by name of a function with a body: the array `&a[…]` each argument
    /// (by position) gives, when every call gives one (none: another value). Position
    /// `usize::MAX`: a call whose arguments cannot be matched to the parameters.
    pub element_arguments: HashMap<(String, usize), Option<VarId>>,
    /// Every write of a variable, by the walks: the width of the `(T)arg` it was given,
    /// when that is all it was given (none: something else; [`super::disjoint`]).
    pub index_writes: HashMap<VarId, Option<u32>>,
    /// The routines whose instances each have their own index, with the width of the
    /// counter that gives it, and their thread keys ([`super::disjoint`]).
    pub index_routines: HashMap<String, u32>,
    pub thread_keys: HashSet<VarId>,
    /// The indices that are an iteration's own in a worksharing loop, by the address of
    /// their expression ([`super::worksharing`]).
    pub iterations: HashMap<usize, super::Step>,
    /// The pointers `L` of element accesses `L[e]` that hold a file-scope pointer's value
    /// read once, by the address of `L`'s expression: that variable ([`super::invariant`]).
    pub bases: HashMap<usize, VarId>,
    /// The constant index tables by variable: their entries ([`super::table`]).
    pub tables: HashMap<VarId, Vec<i64>>,
    /// File-scope pointers set from one local of `main` with a constant offset: that
    /// local, the offset in elements and their type ([`super::origin`]).
    pub base_origins: HashMap<VarId, super::origin::Origin>,
    /// The ids of those of [`Decls::iterations`] that are chunks claimed under a lock
    /// ([`super::chunks`]), not worksharing loops.
    pub chunk_ids: HashSet<usize>,
    /// Pointers that can only hold the start of one array, of its element type: `p[i]` is
    /// that array's element ([`super::alias`]).
    pub array_aliases: HashMap<VarId, VarId>,
    /// The claim loops' exit tests, by address: the iteration variable and its range
    /// after the test ([`super::worksharing`]).
    pub claim_ranges: ClaimRanges,
    /// The row indices known within their dimension, by the address of their expression
    /// ([`super::bounds`]).
    pub in_bounds: HashSet<usize>,
    /// The `simd` bodies of the proof's view and their elements ([`super::lanes`]).
    pub lanes: super::lanes::Lanes,
    /// The phases of the team routines' straight-line items, by the item's address
    /// ([`super::team_barrier`]).
    pub team_places: HashMap<usize, super::team_barrier::Place>,
    /// Variables read other than as the pointer of `*p` or `p->m`, and the slot pointers
    /// with their blocks ([`super::slot`]).
    pub bare_reads: HashSet<VarId>,
    pub slot_pointers: HashMap<VarId, VarId>,
    /// `B[i]` written by `main` before the create of `&B[i]`, by offset: `B`.
    pub fresh_sites: HashMap<usize, VarId>,
    /// The variables whose address the program takes (known after the discovery).
    pub escaped: HashSet<VarId>,
    /// The discovery is done: [`Decls::escaped`] holds every address taken.
    pub addresses_known: bool,
    /// Struct and union tags the program defines more than once (in different scopes).
    pub redefined_tags: HashSet<String>,
    /// The points-to constraints the recording walks generate ([`super::heap`]).
    pub heap: super::heap::Graph,
    /// Variables read other than as the pointer of `*p`, `p->m`, `p[i]` (or whose
    /// address is taken): a fresh block they hold may leave them ([`super::heap`]).
    pub fresh_leaks: HashSet<VarId>,
    /// Each function's parameters by position.
    pub params: HashMap<(String, usize), VarId>,
    /// Lock arguments through a pointer, by the argument's address in the syntax tree:
    /// what the recording walks saw, and the lock each names ([`super::lockptr`]).
    pub lock_candidates: HashMap<usize, super::lockptr::Candidate>,
    pub pointer_locks: HashMap<usize, super::Lock>,
}

impl<'a> Decls<'a> {
    pub fn of(unit: &'a TranslationUnit) -> Decls<'a> {
        let mut d = Decls {
            vars: vec![],
            globals: HashMap::new(),
            bodies: HashMap::new(),
            functions: HashSet::new(),
            ir: ladr_ir::analysis::Vars::new(unit, &HashSet::new()),
            typedefs: HashMap::new(),
            overlapping_fields: overlapping_fields(unit),
            arithmetic_fields: arithmetic_fields(unit),
            function_targets: None,
            arity: HashMap::new(),
            owned: HashSet::new(),
            user_locks: HashMap::new(),
            element_pointers: HashMap::new(),
            element_writes: HashMap::new(),
            element_arguments: HashMap::new(),
            index_writes: HashMap::new(),
            index_routines: HashMap::new(),
            thread_keys: HashSet::new(),
            iterations: HashMap::new(),
            bases: HashMap::new(),
            tables: HashMap::new(),
            base_origins: HashMap::new(),
            chunk_ids: HashSet::new(),
            array_aliases: HashMap::new(),
            in_bounds: HashSet::new(),
            lanes: Default::default(),
            team_places: HashMap::new(),
            claim_ranges: HashMap::new(),
            bare_reads: HashSet::new(),
            slot_pointers: HashMap::new(),
            fresh_sites: HashMap::new(),
            escaped: HashSet::new(),
            addresses_known: false,
            redefined_tags: super::element::redefined_tags(unit),
            heap: Default::default(),
            fresh_leaks: HashSet::new(),
            params: HashMap::new(),
            lock_candidates: HashMap::new(),
            pointer_locks: HashMap::new(),
        };
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(decl) => d.global_declaration(&decl.node),
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let Some(name) = declarator_name(&f.node.declarator.node) {
                        d.declare_arity(name, &f.node.declarator.node);
                        d.functions.insert(name.to_string());
                        d.bodies.insert(name.to_string(), &f.node);
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        d
    }

    fn global_declaration(&mut self, decl: &'a Declaration) {
        if is_typedef(decl) {
            for init in &decl.declarators {
                if let Some(name) = declarator_name(&init.node.declarator.node) {
                    self.typedefs.insert(
                        name.to_string(),
                        (&decl.specifiers, &init.node.declarator.node),
                    );
                }
            }
            return;
        }
        for init in &decl.declarators {
            let declarator = &init.node.declarator.node;
            let Some(name) = declarator_name(declarator) else {
                continue;
            };
            if is_function_declarator(declarator) {
                self.declare_arity(name, declarator);
                self.functions.insert(name.to_string());
                continue;
            }
            let var = self.var(name, None, &decl.specifiers, declarator, false);
            match self.globals.get(name) {
                Some(&old) => {
                    // Several declarations of one global: the facts all of them agree on.
                    let o = &mut self.vars[old];
                    if o.array != var.array {
                        o.array = Tri::Maybe;
                    }
                    o.arithmetic &= var.arithmetic;
                    o.atomic &= var.atomic;
                    if o.depth != var.depth {
                        o.depth = None;
                    }
                    o.thread_local |= var.thread_local;
                    if o.shape != var.shape {
                        o.shape = None;
                    }
                    if o.plain != var.plain {
                        o.plain = None;
                    }
                }
                None => {
                    self.globals.insert(name.to_string(), self.vars.len());
                    self.vars.push(var);
                }
            }
        }
    }

    /// Records the parameters one declaration of function `name` gives it.
    fn declare_arity(&mut self, name: &str, declarator: &Declarator) {
        let mine = arity(declarator);
        self.arity
            .entry(name.to_string())
            .and_modify(|a| {
                if *a != mine {
                    *a = None
                }
            })
            .or_insert(mine);
    }

    /// May function `f` be called with `n` arguments (through a pointer)? Unknown
    /// parameters: yes.
    pub fn callable_with(&self, f: &str, n: usize) -> bool {
        match self.arity.get(f) {
            Some(Some((k, variadic))) => n == *k || (*variadic && n > *k),
            _ => true,
        }
    }

    /// Declares a local (or parameter, `parameter`) of `function`: its id.
    pub fn local(
        &mut self,
        function: &str,
        specs: &[Node<DeclarationSpecifier>],
        declarator: &Declarator,
        parameter: bool,
    ) -> Option<VarId> {
        let name = declarator_name(declarator)?;
        let mut var = self.var(name, Some(function), specs, declarator, parameter);
        if parameter && var.array != Tri::No {
            // An array parameter is a pointer.
            var.array = Tri::No;
            var.depth = Some(0);
            var.arithmetic = false;
        }
        self.vars.push(var);
        Some(self.vars.len() - 1)
    }

    fn var(
        &self,
        name: &str,
        function: Option<&str>,
        specs: &[Node<DeclarationSpecifier>],
        declarator: &Declarator,
        parameter: bool,
    ) -> Var {
        let storage: Vec<&StorageClassSpecifier> = specs
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::StorageClass(c) => Some(&c.node),
                _ => None,
            })
            .collect();
        let is_static = storage.iter().any(|c| {
            matches!(
                c,
                StorageClassSpecifier::Static | StorageClassSpecifier::Extern
            )
        });
        let thread_local = storage
            .iter()
            .any(|c| matches!(c, StorageClassSpecifier::ThreadLocal));
        let facts = self.type_facts(specs, declarator, 0);
        let scalar_pointee = scalar_pointee(specs, declarator);
        Var {
            name: name.to_string(),
            function: function.map(str::to_string),
            automatic: function.is_some() && (parameter || !is_static) && !thread_local,
            thread_local,
            array: facts.array,
            arithmetic: facts.arithmetic,
            atomic: facts.atomic,
            depth: facts.depth,
            parameter,
            position: None,
            shape: super::element::shape(specs, declarator),
            plain: super::element::plain(specs, declarator),
            scalar_pointee,
            pointee_key: scalar_pointee
                .then(|| format!("{:?}", ladr_c::syntax::build::type_specifiers(specs))),
            wide_integer: wide_integer(specs, declarator),
            longs: ladr_c::syntax::build::type_specifiers(specs)
                .iter()
                .filter(|t| matches!(t, TypeSpecifier::Long))
                .count(),
        }
    }

    /// The type facts of a declarator with these specifiers (typedefs looked through).
    pub fn type_facts(
        &self,
        specs: &[Node<DeclarationSpecifier>],
        declarator: &Declarator,
        depth: usize,
    ) -> TypeFacts {
        let base = self.base_facts(
            specs.iter().filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(Spec::Type(&t.node)),
                DeclarationSpecifier::TypeQualifier(q) => Some(Spec::Qualifier(&q.node)),
                _ => None,
            }),
            depth,
        );
        let nested = matches!(declarator.kind.node, DeclaratorKind::Declarator(_));
        if declarator.derived.is_empty() && !nested {
            return base;
        }
        let (array, depth) = if is_array_declarator(declarator) {
            let dims = array_dims(declarator);
            (Tri::Yes, (base.array == Tri::No).then_some(dims))
        } else if is_pointer_declarator(declarator) {
            (Tri::No, Some(0))
        } else {
            (Tri::Maybe, None)
        };
        TypeFacts {
            array,
            arithmetic: false,
            atomic: false,
            depth,
        }
    }

    fn base_facts<'s>(&self, specs: impl Iterator<Item = Spec<'s>>, depth: usize) -> TypeFacts {
        let mut facts = TypeFacts {
            array: Tri::No,
            arithmetic: true,
            atomic: false,
            depth: Some(0),
        };
        for s in specs {
            match s {
                Spec::Qualifier(TypeQualifier::Atomic) => facts.atomic = true,
                Spec::Qualifier(_) => {}
                Spec::Type(t) => match t {
                    TypeSpecifier::Void => facts.arithmetic = false,
                    t if is_arithmetic_keyword(t) => {}
                    TypeSpecifier::Complex
                    | TypeSpecifier::Enum(_)
                    | TypeSpecifier::TS18661Float(_) => {}
                    TypeSpecifier::Atomic(_) => {
                        // `_Atomic(T)`: T is not looked into.
                        facts.atomic = true;
                        facts.arithmetic = false;
                        facts.array = Tri::Maybe;
                        facts.depth = None;
                    }
                    TypeSpecifier::TypedefName(n) => match self.typedefs.get(&n.node.name) {
                        Some((specs, decl)) if depth < 32 => {
                            let t = self.type_facts(specs, decl, depth + 1);
                            facts.array = t.array;
                            facts.depth = t.depth;
                            facts.arithmetic &= t.arithmetic;
                            facts.atomic |= t.atomic;
                        }
                        _ => {
                            facts.array = Tri::Maybe;
                            facts.arithmetic = false;
                            facts.depth = None;
                        }
                    },
                    TypeSpecifier::Struct(_) => facts.arithmetic = false,
                    // `normalise`'s temporaries of call results and other rvalues: no
                    // function returns an array, and no operator yields one.
                    TypeSpecifier::TypeOf(t) if matches!(&t.node, TypeOf::Expression(e) if never_array(e)) =>
                    {
                        facts.arithmetic = false;
                    }
                    _ => {
                        facts.array = Tri::Maybe;
                        facts.arithmetic = false;
                        facts.depth = None;
                    }
                },
            }
        }
        facts
    }
}

enum Spec<'s> {
    Type(&'s TypeSpecifier),
    Qualifier(&'s TypeQualifier),
}

/// An expression whose type is surely no array: a call, a cast, a conditional, an
/// arithmetic, logical or comparison operator (arrays decay in their operands).
fn never_array(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Call(_)
        | Expression::Cast(_)
        | Expression::Conditional(_)
        | Expression::Constant(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node != BinaryOperator::Index,
        Expression::UnaryOperator(u) => u.node.operator.node != UnaryOperator::Indirection,
        _ => false,
    }
}

/// The members of the program's unions (and of the structs inside them) and its
/// bit-fields: [`Decls::overlapping_fields`].
fn overlapping_fields(unit: &TranslationUnit) -> HashSet<String> {
    struct Fields {
        in_union: usize,
        found: HashSet<String>,
    }
    impl Visitor for Fields {
        type Error = Infallible;
        fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
            let TypeSpecifier::Struct(st) = &t.node else {
                return Ok(Walk::Descend);
            };
            let union = st.node.kind.node == StructKind::Union;
            for (name, bit_width) in struct_members(&st.node) {
                if let Some(n) = name {
                    if union || self.in_union > 0 || bit_width.is_some() {
                        self.found.insert(n.to_string());
                    }
                }
            }
            if union {
                self.in_union += 1;
                visit::type_specifier_children(self, t)?;
                self.in_union -= 1;
                return Ok(Walk::Skip);
            }
            Ok(Walk::Descend)
        }
    }
    let mut v = Fields {
        in_union: 0,
        found: HashSet::new(),
    };
    let Ok(()) = visit::unit(&mut v, unit);
    v.found
}

/// [`Decls::arithmetic_fields`].
fn arithmetic_fields(unit: &TranslationUnit) -> HashSet<String> {
    #[derive(Default)]
    struct Fields {
        narrow: HashSet<String>,
        wide: HashSet<String>,
    }
    impl Visitor for Fields {
        type Error = Infallible;
        fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
            let TypeSpecifier::Struct(st) = &t.node else {
                return Ok(Walk::Descend);
            };
            for f in st.node.declarations.iter().flatten() {
                let StructDeclaration::Field(f) = &f.node else {
                    continue;
                };
                let types = field_type_specifiers(&f.node.specifiers);
                let narrow_type = !types.is_empty()
                    && types
                        .iter()
                        .all(|t| is_arithmetic_keyword(t) && !matches!(t, TypeSpecifier::Long));
                for d in &f.node.declarators {
                    let Some(decl) = &d.node.declarator else {
                        continue;
                    };
                    let Some(name) = declarator_name(&decl.node) else {
                        continue;
                    };
                    let plain = decl.node.derived.is_empty()
                        && matches!(decl.node.kind.node, DeclaratorKind::Identifier(_));
                    if narrow_type && plain {
                        self.narrow.insert(name.to_string());
                    } else {
                        self.wide.insert(name.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut v = Fields::default();
    let Ok(()) = visit::unit(&mut v, unit);
    v.narrow.difference(&v.wide).cloned().collect()
}

/// The parameters of a function declarator with a prototype: how many (`(void)`: none),
/// variadic. None: K&R or no function declarator.
fn arity(d: &Declarator) -> Option<(usize, bool)> {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        return arity(&inner.node);
    }
    let f = d.derived.iter().find_map(|x| match &x.node {
        DerivedDeclarator::Function(f) => Some(&f.node),
        DerivedDeclarator::KRFunction(_) => None,
        _ => None,
    })?;
    if d.derived
        .iter()
        .any(|x| matches!(x.node, DerivedDeclarator::KRFunction(_)))
    {
        return None;
    }
    let void = f.parameters.len() == 1
        && f.parameters[0].node.declarator.is_none()
        && f.parameters[0].node.specifiers.iter().all(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
        });
    let n = if void { 0 } else { f.parameters.len() };
    Some((n, f.ellipsis == Ellipsis::Some))
}

/// `T *p` with `T` arithmetic keywords only (`int`, `unsigned long`, `double`).
fn scalar_pointee(specs: &[Node<DeclarationSpecifier>], d: &Declarator) -> bool {
    let types = ladr_c::syntax::build::type_specifiers(specs);
    matches!(d.kind.node, DeclaratorKind::Identifier(_))
        && matches!(&d.derived[..], [x] if matches!(x.node, DerivedDeclarator::Pointer(_)))
        && !types.is_empty()
        && types.iter().all(|t| is_arithmetic_keyword(t))
}

/// `int`, `unsigned`, `long`, `long long` (with `signed`/`unsigned`), no pointer, array
/// or function, not `_Atomic`: a type whose arithmetic no promotion widens.
fn wide_integer(specs: &[Node<DeclarationSpecifier>], declarator: &Declarator) -> bool {
    let types = ladr_c::syntax::build::type_specifiers(specs);
    declarator.derived.is_empty()
        && !types.is_empty()
        && types.iter().all(|t| {
            matches!(
                t,
                TypeSpecifier::Int | TypeSpecifier::Long | TypeSpecifier::Signed | TypeSpecifier::Unsigned
            )
        })
        && !specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
        })
}
