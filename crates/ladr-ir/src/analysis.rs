//! Which accesses are data accesses (DESIGN §6), computed once over the program after
//! `threads`: used by `visible` (which statements may access shared memory) and `race`
//! (which lvalues to instrument).
//!
//! Shared: globals and statics of the user's program, every dereference (`*p`, `p->f`,
//! `p[i]` with a pointer `p`), and thread locals whose address is taken or whose type is not
//! scalar (an array or struct local can escape by decay). Never: ladr's own variables (the
//! model's and the driver's), and scalar thread locals whose address is never taken — each
//! slot has its own copy, so no other thread can reach them. Classifying a private variable
//! as shared only costs formula size (shadow memory is per address); the opposite would hide
//! races, so every doubt resolves to "shared".

use ladr_c::syntax::build::{declarator_name, is_function_declarator};
use ladr_c::syntax::names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

use crate::bit_field_index::BitFields;
pub use crate::bit_fields::BitAnchor;

#[derive(Clone, Debug, Default)]
pub struct Vars {
    /// Array depth of every declared variable (0 = not an array).
    depth: HashMap<String, usize>,
    /// Declared functions.
    functions: HashSet<String>,
    /// Thread locals (automatic locals of slot bodies) that are private.
    private: HashSet<String>,
    /// All thread locals (automatic locals of slot bodies, made static by `threads`).
    thread_locals: HashSet<String>,
    /// Struct members declared as arrays, with their depth.
    array_fields: HashMap<String, usize>,
    /// Pointers to arrays (`int (*p)[4]`, `row *p` of `typedef int row[4]`): the depth of
    /// the arrays they point to (`p[i]` and `*p` are arrays, not values read).
    pointer_rows: HashMap<String, usize>,
    /// Struct members that are bit-fields, with where their memory location starts.
    pub bit_fields: BitFields,
    /// Which levels of the types of variables, typedefs and struct members are `_Atomic`.
    atomic: Atomics,
    /// Variables whose array depth is not known for sure: a base type the analysis cannot
    /// see through (an unknown typedef, `__typeof__` of an expression), or declarations of
    /// the name with different depths (a parameter of a prototype beside a global array).
    uncertain: HashSet<String>,
    /// Struct members whose array depth is not known for sure (a typedef or `__typeof__`
    /// type).
    uncertain_fields: HashSet<String>,
    /// Objects no access of which can be part of a data race (`passes::racefree`): never
    /// instrumented, as private locals are not.
    race_free: HashSet<String>,
    /// Objects the static proof shows race-free with no atomic access
    /// (`Program::proved`'s `plain`): not shared for `visible` and `race` alike.
    proved_plain: std::collections::BTreeSet<String>,
    /// Thread locals and private pointers no other thread can reach
    /// ([`crate::confined`]): not shared, and neither is what the pointers designate.
    pub(crate) confined: crate::confined::Confined,
}

/// Which levels of a type are `_Atomic`-qualified, outermost first: `[0]` the object
/// itself, `[1]` what it points to (or its elements), and so on. `_Atomic int *p` is
/// `[false, true]`, `atomic_int a[2]` is `[true, true]` (an array level takes its
/// elements' qualifier), `int *_Atomic q` is `[true, false]`. Missing levels are plain.
pub type Shape = Vec<bool>;

impl Vars {
    /// `thread_locals`: the automatic locals the `threads` pass made static.
    pub fn new(unit: &TranslationUnit, thread_locals: &HashSet<String>) -> Vars {
        let mut c = Collector::default();
        c.unit(unit);
        let mut private = HashSet::new();
        for l in thread_locals {
            if !c.address_taken.contains(l) && c.scalar.contains(l) {
                private.insert(l.clone());
            }
        }
        Vars {
            depth: c.depth,
            functions: c.functions,
            private,
            thread_locals: thread_locals.clone(),
            array_fields: c.array_fields,
            pointer_rows: c.pointer_rows,
            bit_fields: BitFields::of(unit),
            atomic: c.atomic,
            uncertain: c.uncertain,
            uncertain_fields: c.uncertain_fields,
            race_free: HashSet::new(),
            proved_plain: Default::default(),
            confined: Default::default(),
        }
    }

    /// Marks the objects the static proof shows race-free whose accesses all commute with
    /// other threads' steps (`Program::proved`): from now on they are not shared, so a
    /// statement touching only them is not visible and none of their accesses is
    /// instrumented.
    pub fn set_proved_plain(&mut self, names: std::collections::BTreeSet<String>) {
        self.proved_plain = names;
    }

    /// Is `name` an object [`Vars::set_proved_plain`] made unshared?
    pub fn is_proved_plain(&self, name: &str) -> bool {
        self.proved_plain.contains(name)
    }

    /// Did [`Vars::set_proved_plain`] make any object unshared?
    pub fn has_proved_plain(&self) -> bool {
        !self.proved_plain.is_empty()
    }

    /// Is lvalue `e` an `_Atomic` part of an object that [`Vars::set_proved_plain`] made
    /// unshared? Its access stays visible: an atomic access may order other threads'.
    pub fn is_proved_atomic(&self, e: &Expression) -> bool {
        lvalue_base(e).is_some_and(|b| self.proved_plain.contains(b)) && self.is_atomic(e)
    }

    /// Marks objects no access of which can race (`passes::racefree` proves it): from now
    /// on they are not shared.
    pub fn set_race_free(&mut self, names: HashSet<String>) {
        self.race_free = names;
    }

    /// The objects marked race-free.
    pub fn race_free(&self) -> &HashSet<String> {
        &self.race_free
    }

    /// Is `name` a variable (declared, not a function, not ladr's own)?
    pub fn is_variable(&self, name: &str) -> bool {
        self.depth.contains_key(name) && !self.functions.contains(name) && !is_model_object(name)
    }

    /// The array depth of variable `name`, when it is known for sure.
    pub fn object_depth(&self, name: &str) -> Option<usize> {
        if self.uncertain.contains(name) {
            return None;
        }
        self.depth.get(name).copied()
    }

    /// The array depth of struct member `name` (the deepest of the members of that name),
    /// when it is known for sure.
    pub fn field_depth(&self, name: &str) -> Option<usize> {
        if self.uncertain_fields.contains(name) {
            return None;
        }
        Some(self.array_fields.get(name).copied().unwrap_or(0))
    }

    /// Is `name` a private thread local (scalar, address never taken)?
    pub fn is_private(&self, name: &str) -> bool {
        self.private.contains(name)
    }

    /// Is lvalue `e` an `_Atomic` object (declared `_Atomic T`, `_Atomic(T)`, through a
    /// typedef such as `atomic_int`, or reached through a pointer to one)? Every access of
    /// such an object is atomic (C11 5.1.2.4), `++`, `--` and compound assignments
    /// included (atomic read-modify-writes).
    pub fn is_atomic(&self, e: &Expression) -> bool {
        self.atomic.expr(e).first().copied().unwrap_or(false)
    }

    /// The automatic locals of slot bodies.
    pub fn thread_locals(&self) -> &HashSet<String> {
        &self.thread_locals
    }

    /// True for the automatic locals of slot bodies (private or not).
    pub fn is_thread_local(&self, name: &str) -> bool {
        self.thread_locals.contains(name)
    }

    /// True if reading or writing variable `name` may be a data access.
    pub fn is_shared_var(&self, name: &str) -> bool {
        if self.functions.contains(name) || !self.depth.contains_key(name) {
            return false; // functions, enumerators, undeclared builtins
        }
        if is_model_object(name) {
            return false;
        }
        !self.private.contains(name)
            && !self.race_free.contains(name)
            && !self.proved_plain.contains(name)
            && !self.confined.objects.contains(name)
    }

    /// Number of array dimensions of the value of `e` (0 when it is not an array or unknown).
    pub fn array_depth(&self, e: &Expression) -> usize {
        match e {
            Expression::Identifier(i) => self.depth.get(&i.node.name).copied().unwrap_or(0),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                match self.pointer_rows_of(&b.node.lhs.node) {
                    Some(k) => k,
                    None => self.array_depth(&b.node.lhs.node).saturating_sub(1),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.pointer_rows_of(&u.node.operand.node).unwrap_or(0)
            }
            Expression::Member(m) => self
                .array_fields
                .get(&m.node.identifier.node.name)
                .copied()
                .unwrap_or(0),
            _ => 0,
        }
    }

    /// The depth of the arrays the pointer variable `e` points to, if it is one.
    fn pointer_rows_of(&self, e: &Expression) -> Option<usize> {
        match e {
            Expression::Identifier(i) => self.pointer_rows.get(&i.node.name).copied(),
            _ => None,
        }
    }

    pub fn is_function(&self, name: &str) -> bool {
        self.functions.contains(name)
    }
}

#[derive(Default)]
struct Collector {
    depth: HashMap<String, usize>,
    functions: HashSet<String>,
    scalar: HashSet<String>,
    address_taken: HashSet<String>,
    array_fields: HashMap<String, usize>,
    pointer_rows: HashMap<String, usize>,
    /// Struct members by name: whether every member of that name (in any struct) is a
    /// scalar (not an array, struct or union).
    scalar_fields: HashMap<String, bool>,
    /// typedef name → (array depth, scalar)
    typedefs: HashMap<String, (usize, bool)>,
    /// Variables and typedefs whose array depth is not known for sure (`Vars::uncertain`).
    uncertain: HashSet<String>,
    uncertain_fields: HashSet<String>,
    atomic: Atomics,
    /// Struct member names seen so far.
    fields_seen: HashSet<String>,
}

/// The shape of the value of an expression of shape `s`: the object itself not atomic.
fn rvalue(mut s: Shape) -> Shape {
    if let Some(first) = s.first_mut() {
        *first = false;
    }
    s
}

/// `_Atomic` shapes of variables, typedefs and struct members (only those with an atomic
/// level). Struct members go by name: of members of the same name in different structs, a
/// level is atomic only if it is in all of them (a doubt never makes an access atomic).
#[derive(Clone, Debug, Default)]
struct Atomics {
    vars: HashMap<String, Shape>,
    typedefs: HashMap<String, Shape>,
    fields: HashMap<String, Shape>,
}

impl Atomics {
    /// The shape of a base type: its specifiers and qualifiers.
    fn base<'a>(&self, specs: impl Iterator<Item = (Option<&'a TypeSpecifier>, bool)>) -> Shape {
        let mut shape = vec![];
        let mut atomic = false;
        for (t, q) in specs {
            atomic |= q;
            match t {
                Some(TypeSpecifier::Atomic(tn)) => {
                    atomic = true;
                    shape = self.type_name(&tn.node);
                }
                Some(TypeSpecifier::TypedefName(n)) => {
                    shape = self.typedefs.get(&n.node.name).cloned().unwrap_or_default()
                }
                Some(TypeSpecifier::TypeOf(to)) => {
                    shape = match &to.node {
                        TypeOf::Expression(e) => self.expr(&e.node),
                        TypeOf::Type(tn) => self.type_name(&tn.node),
                    }
                }
                _ => {}
            }
        }
        if atomic {
            match shape.first_mut() {
                Some(f) => *f = true,
                None => shape.push(true),
            }
        }
        shape
    }

    fn decl_specs(&self, specs: &[Node<DeclarationSpecifier>]) -> Shape {
        self.base(specs.iter().map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => (Some(&t.node), false),
            DeclarationSpecifier::TypeQualifier(q) => (None, q.node == TypeQualifier::Atomic),
            _ => (None, false),
        }))
    }

    fn spec_quals(&self, specs: &[Node<SpecifierQualifier>]) -> Shape {
        self.base(specs.iter().map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => (Some(&t.node), false),
            SpecifierQualifier::TypeQualifier(q) => (None, q.node == TypeQualifier::Atomic),
            _ => (None, false),
        }))
    }

    fn type_name(&self, tn: &TypeName) -> Shape {
        let base = self.spec_quals(&tn.specifiers);
        match &tn.declarator {
            Some(d) => declarator_shape(&d.node, base),
            None => base,
        }
    }
}

/// The shape of the object `d` declares, given its base type's shape: each derived
/// declarator wraps the type (in lang-c's order, innermost first), then an enclosing
/// declarator `(…)` wraps the result.
fn declarator_shape(d: &Declarator, base: Shape) -> Shape {
    let mut shape = base;
    for dd in &d.derived {
        let level = match &dd.node {
            DerivedDeclarator::Pointer(qs) => qs.iter().any(|q| {
                matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Atomic)
            }),
            DerivedDeclarator::Array(_) => shape.first().copied().unwrap_or(false),
            _ => false,
        };
        shape.insert(0, level);
    }
    match &d.kind.node {
        DeclaratorKind::Declarator(inner) => declarator_shape(&inner.node, shape),
        _ => shape,
    }
}

impl Atomics {
    /// The shape of the type of `e` (empty when unknown or plain).
    fn expr(&self, e: &Expression) -> Shape {
        let shape = |e: &Node<Expression>| self.expr(&e.node);
        let inner = |s: Shape| s.get(1..).map(<[bool]>::to_vec).unwrap_or_default();
        match e {
            Expression::Identifier(i) => self.vars.get(&i.node.name).cloned().unwrap_or_default(),
            Expression::Member(m) => self
                .fields
                .get(&m.node.identifier.node.name)
                .cloned()
                .unwrap_or_default(),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Indirection => inner(shape(&u.node.operand)),
                UnaryOperator::Address => {
                    let mut s = shape(&u.node.operand);
                    if s.contains(&true) {
                        s.insert(0, false);
                    }
                    s
                }
                _ => shape(&u.node.operand),
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Index => {
                    let l = shape(&b.node.lhs);
                    inner(if l.is_empty() { shape(&b.node.rhs) } else { l })
                }
                BinaryOperator::Plus | BinaryOperator::Minus => {
                    let l = shape(&b.node.lhs);
                    if l.is_empty() {
                        shape(&b.node.rhs)
                    } else {
                        l
                    }
                }
                ref op if ladr_c::syntax::walk::is_assign_op(op) => shape(&b.node.lhs),
                _ => vec![],
            },
            Expression::Cast(c) => self.type_name(&c.node.type_name.node),
            // No lvalue: the value has the unqualified type (C11 6.3.2.1p2), so
            // `__typeof__((void)0, *p)` (gcc's <stdatomic.h>) is not atomic itself.
            Expression::Conditional(c) => rvalue(shape(&c.node.then_expression)),
            Expression::Comma(es) => rvalue(es.last().map(shape).unwrap_or_default()),
            _ => vec![],
        }
    }

    /// Records the shape of a declared variable or typedef.
    fn declare(&mut self, name: &str, shape: Shape, is_typedef: bool) {
        let map = if is_typedef {
            &mut self.typedefs
        } else {
            &mut self.vars
        };
        if shape.contains(&true) {
            map.insert(name.to_string(), shape);
        } else {
            map.remove(name);
        }
    }

    /// Records the shape of a struct member (meeting an earlier member of the same name).
    fn field(&mut self, name: &str, shape: Shape, first: bool) {
        let merged = match self.fields.get(name) {
            Some(old) if !first => old.iter().zip(&shape).map(|(a, b)| *a && *b).collect(),
            Some(_) => shape,
            None if first => shape,
            None => vec![],
        };
        if merged.contains(&true) {
            self.fields.insert(name.to_string(), merged);
        } else {
            self.fields.remove(name);
        }
    }
}

fn trailing_arrays(d: &Declarator) -> usize {
    let own = d
        .derived
        .iter()
        .rev()
        .take_while(|x| matches!(x.node, DerivedDeclarator::Array(_)))
        .count();
    if own > 0 {
        return own;
    }
    match &d.kind.node {
        DeclaratorKind::Declarator(inner) if inner.node.derived.is_empty() => {
            trailing_arrays(&inner.node)
        }
        _ => 0,
    }
}

/// Is `d` a pointer (`*p`, `*const p`), not an array (of pointers)?
pub(crate) fn is_pointer_declarator(d: &Declarator) -> bool {
    has_pointer(d) && trailing_arrays(d) == 0
}

pub(crate) fn has_pointer(d: &Declarator) -> bool {
    d.derived
        .iter()
        .any(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        || matches!(&d.kind.node, DeclaratorKind::Declarator(inner) if has_pointer(&inner.node))
}

impl Collector {
    /// (array depth, scalar) of a declaration's base type.
    fn base_type(&self, specs: &[Node<DeclarationSpecifier>]) -> (usize, bool) {
        self.base_of(specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }))
    }

    /// (array depth, scalar) of a struct member's base type.
    fn base_type_of(&self, specs: &[Node<SpecifierQualifier>]) -> (usize, bool) {
        self.base_of(specs.iter().filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }))
    }

    fn base_of<'a>(&self, types: impl Iterator<Item = &'a Node<TypeSpecifier>>) -> (usize, bool) {
        let mut scalar = true;
        let mut depth = 0;
        for t in types {
            {
                match &t.node {
                    // `__typeof__(x)` (copies and temporaries ladr declares): x's type.
                    TypeSpecifier::TypeOf(to) => match &to.node {
                        TypeOf::Expression(e) => match &e.node {
                            Expression::Identifier(i) if self.depth.contains_key(&i.node.name) => {
                                depth = self.depth[&i.node.name];
                                scalar &= self.scalar.contains(&i.node.name);
                            }
                            // A member's type (`__typeof__(p->f)`, the temporary of a read
                            // of a field): scalar when every member of that name is.
                            Expression::Member(m) => {
                                let f = &m.node.identifier.node.name;
                                depth = self.array_fields.get(f).copied().unwrap_or(0);
                                scalar &= self.scalar_fields.get(f) == Some(&true);
                            }
                            // The type of a call's value (a temporary `normalise` made for a
                            // hoisted call): never an array, so it cannot escape by decay.
                            Expression::Call(_) => {}
                            // A value cast to a pointer type, such as the statement
                            // expression of Linux's `container_of`.
                            e if is_pointer_cast(e) => {}
                            _ => scalar = false,
                        },
                        TypeOf::Type(_) => scalar = false,
                    },
                    TypeSpecifier::Struct(_) | TypeSpecifier::Atomic(_) => scalar = false,
                    TypeSpecifier::TypedefName(n) => match self.typedefs.get(&n.node.name) {
                        Some(&(d, s)) => {
                            depth = d;
                            scalar &= s;
                        }
                        None => scalar = false,
                    },
                    _ => {}
                }
            }
        }
        (depth, scalar)
    }

    /// Does a base type hide whether it is an array: an unknown or uncertain typedef,
    /// `__typeof__` of anything but a variable, a call or a pointer cast, `_Atomic(T)`?
    fn uncertain_base<'a>(&self, specs: impl Iterator<Item = &'a TypeSpecifier>) -> bool {
        let mut uncertain = false;
        for t in specs {
            uncertain |= match t {
                TypeSpecifier::TypeOf(to) => match &to.node {
                    TypeOf::Expression(e) => match &e.node {
                        Expression::Identifier(i) => {
                            !self.depth.contains_key(&i.node.name)
                                || self.uncertain.contains(&i.node.name)
                        }
                        Expression::Call(_) => false,
                        e => !is_pointer_cast(e),
                    },
                    TypeOf::Type(_) => true,
                },
                TypeSpecifier::TypedefName(n) => {
                    !self.typedefs.contains_key(&n.node.name)
                        || self.uncertain.contains(&n.node.name)
                }
                TypeSpecifier::Atomic(_) => true,
                _ => false,
            };
        }
        uncertain
    }

    fn declare(&mut self, specs: &[Node<DeclarationSpecifier>], d: &Declarator, is_typedef: bool) {
        let Some(name) = declarator_name(d) else {
            return;
        };
        if is_function_declarator(d) {
            self.functions.insert(name.to_string());
            return;
        }
        let shape = declarator_shape(d, self.atomic.decl_specs(specs));
        self.atomic.declare(name, shape, is_typedef);
        let (base_depth, base_scalar) = self.base_type(specs);
        let own = trailing_arrays(d);
        let pointer = has_pointer(d);
        let depth = if own > 0 {
            own + if pointer { 0 } else { base_depth }
        } else if pointer {
            0
        } else {
            base_depth
        };
        // A pointer to arrays: its value is a pointer; `p[i]`, `*p` are arrays.
        let one_pointer = |x: &Declarator| matches!(x.derived.as_slice(), [p] if matches!(p.node, DerivedDeclarator::Pointer(_)));
        let rows = match &d.kind.node {
            DeclaratorKind::Declarator(inner)
                if matches!(inner.node.kind.node, DeclaratorKind::Identifier(_))
                    && one_pointer(&inner.node)
                    && !d.derived.is_empty()
                    && d.derived
                        .iter()
                        .all(|x| matches!(x.node, DerivedDeclarator::Array(_))) =>
            {
                Some(d.derived.len() + base_depth)
            }
            DeclaratorKind::Identifier(_) if one_pointer(d) && base_depth > 0 => Some(base_depth),
            _ => None,
        };
        let depth = if rows.is_some() { 0 } else { depth };
        if let (Some(k), false) = (rows, is_typedef) {
            self.pointer_rows.insert(name.to_string(), k);
        }
        let scalar = depth == 0 && (pointer || base_scalar);
        // `int (*p)[3]` is a pointer, though its outer declarator ends in an array.
        let nested_array = matches!(&d.kind.node, DeclaratorKind::Declarator(inner) if !inner.node.derived.is_empty())
            && d.derived
                .iter()
                .any(|x| matches!(x.node, DerivedDeclarator::Array(_)));
        let uncertain = nested_array
            || self.uncertain_base(specs.iter().filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            }));
        let differs = !is_typedef && self.depth.get(name).is_some_and(|&old| old != depth);
        if uncertain || differs {
            self.uncertain.insert(name.to_string());
        }
        if is_typedef {
            self.typedefs.insert(name.to_string(), (depth, scalar));
        } else {
            self.depth.insert(name.to_string(), depth);
            if scalar {
                self.scalar.insert(name.to_string());
            }
        }
    }
}

impl Collector {
    /// Every declaration, parameter, struct field and `&` of the unit; a function
    /// definition's name is a function's.
    fn unit(&mut self, unit: &TranslationUnit) {
        for ext in &unit.0 {
            let Ok(()) = match &ext.node {
                ExternalDeclaration::Declaration(d) => visit::declaration(self, d),
                ExternalDeclaration::StaticAssert(_) => Ok(()),
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let Some(n) = declarator_name(&f.node.declarator.node) {
                        self.functions.insert(n.to_string());
                    }
                    function_with_specifiers(self, f)
                }
            };
        }
    }
}

impl Visitor for Collector {
    type Error = Infallible;

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(sc) if sc.node == StorageClassSpecifier::Typedef)
        });
        for id in &d.node.declarators {
            self.declare(&d.node.specifiers, &id.node.declarator.node, is_typedef);
        }
        Ok(Walk::Descend)
    }

    /// The walker's order, with each parameter declared before its own specifiers and
    /// declarator are walked (a later declaration of a name wins).
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        if let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
            visit::declarator(self, inner)?;
        }
        for dd in &d.node.derived {
            match &dd.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        visit::expr(self, e)?
                    }
                    _ => {}
                },
                DerivedDeclarator::Function(f) => {
                    for p in &f.node.parameters {
                        if let Some(d) = &p.node.declarator {
                            self.declare(&p.node.specifiers, &d.node, false);
                        }
                        for s in &p.node.specifiers {
                            visit::decl_specifier(self, s)?;
                        }
                        if let Some(d) = &p.node.declarator {
                            visit::declarator(self, d)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(Walk::Skip)
    }

    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::Struct(st) = &t.node {
            for f in st.node.declarations.iter().flatten() {
                let StructDeclaration::Field(f) = &f.node else {
                    continue;
                };
                for sd in &f.node.declarators {
                    let Some(d) = &sd.node.declarator else {
                        continue;
                    };
                    let Some(n) = declarator_name(&d.node) else {
                        continue;
                    };
                    let shape =
                        declarator_shape(&d.node, self.atomic.spec_quals(&f.node.specifiers));
                    let first = self.fields_seen.insert(n.to_string());
                    self.atomic.field(n, shape, first);
                    let depth = trailing_arrays(&d.node);
                    let (base_depth, base_scalar) = self.base_type_of(&f.node.specifiers);
                    let pointer = has_pointer(&d.node);
                    let scalar = depth == 0 && (pointer || (base_depth == 0 && base_scalar));
                    *self.scalar_fields.entry(n.to_string()).or_insert(true) &= scalar;
                    let typed =
                        self.uncertain_base(f.node.specifiers.iter().filter_map(
                            |s| match &s.node {
                                SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                                _ => None,
                            },
                        ));
                    let typedef_array = f.node.specifiers.iter().any(|s| {
                        matches!(&s.node, SpecifierQualifier::TypeSpecifier(t)
                            if matches!(&t.node, TypeSpecifier::TypedefName(n)
                                if self.typedefs.get(&n.node.name).is_some_and(|&(d, _)| d > 0)))
                    });
                    if typed || typedef_array || has_pointer(&d.node) && depth > 0 {
                        self.uncertain_fields.insert(n.to_string());
                    }
                    if depth > 0 {
                        let e = self.array_fields.entry(n.to_string()).or_insert(0);
                        *e = (*e).max(depth);
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            // N4's havoc of an uninitialised local (`__CPROVER_havoc_object(&x)`) gives `x`
            // an arbitrary value; it does not let `x`'s address escape.
            Expression::Call(c)
                if ladr_c::syntax::build::callee_name(&c.node) == Some(crate::abi::HAVOC) =>
            {
                Ok(Walk::Skip)
            }
            Expression::UnaryOperator(u) => {
                if u.node.operator.node == UnaryOperator::Address {
                    if let Some(base) = lvalue_base(&u.node.operand.node) {
                        self.address_taken.insert(base.to_string());
                    }
                }
                Ok(Walk::Descend)
            }
            _ => Ok(Walk::Descend),
        }
    }
}

/// A function definition with its specifiers (a `struct { … }` or `enum { … }` defined in
/// its return type).
fn function_with_specifiers<V: Visitor + ?Sized>(
    v: &mut V,
    f: &Node<FunctionDefinition>,
) -> Result<(), V::Error> {
    for s in &f.node.specifiers {
        visit::decl_specifier(v, s)?;
    }
    visit::function(v, f)
}

/// Is `e` a cast to a pointer type, an address (`&x`: the `__auto_type p = &x` of
/// `<stdatomic.h>`'s macros), or a statement expression whose value is one of them?
fn is_pointer_cast(e: &Expression) -> bool {
    match e {
        Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Address,
        Expression::Cast(c) => c
            .node
            .type_name
            .node
            .declarator
            .as_ref()
            .is_some_and(|d| has_pointer(&d.node)),
        Expression::Statement(s) => match &s.node {
            Statement::Compound(items) => match items.last().map(|i| &i.node) {
                Some(BlockItem::Statement(st)) => match &st.node {
                    Statement::Expression(Some(v)) => is_pointer_cast(&v.node),
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        },
        _ => false,
    }
}

/// The variable whose storage an lvalue designates part of (`x`, `x.f`, `x[i]` with array x),
/// or `None` when it goes through a pointer.
pub fn lvalue_base(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            lvalue_base(&m.node.expression.node)
        }
        // `&a[i]`: a may be an array (its storage) or a pointer; either way count it.
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            lvalue_base(&b.node.lhs.node)
        }
        _ => None,
    }
}

/// The object a pointer expression surely points into when it is an address taken in place,
/// under any casts: `&s`, `(T *)&s`, `(__typeof__(p))(&s)` (a pointer `constprop` folded)
/// → `s`. So `((__typeof__(p))(&a[3]))->f` is part of `a`'s storage, as `a[3].f` is.
pub fn address_target(e: &Expression) -> Option<&Node<Expression>> {
    match e {
        Expression::Cast(c) => address_target(&c.node.expression.node),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            Some(&u.node.operand)
        }
        _ => None,
    }
}

/// The largest constant dimension of any array declared in `unit` (0 if none), and the
/// largest element count of one declared array: the product of its constant dimensions
/// (`double b[1000][1000]`: 1000 and 1,000,000; a dimension that is no literal counts 1).
pub fn largest_array(unit: &TranslationUnit) -> (u64, u64) {
    struct LargestArray(u64, u64);
    impl Visitor for LargestArray {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
            let mut elements: Option<u64> = None;
            for dd in &d.node.derived {
                if let DerivedDeclarator::Array(a) = &dd.node {
                    let n = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            ladr_c::syntax::constant::int_literal(&e.node)
                        }
                        _ => None,
                    };
                    self.0 = self.0.max(n.unwrap_or(0));
                    elements = Some(elements.unwrap_or(1).saturating_mul(n.unwrap_or(1)));
                }
            }
            self.1 = self.1.max(elements.unwrap_or(0));
            Ok(Walk::Descend)
        }
    }
    let mut a = LargestArray(0, 0);
    for ext in &unit.0 {
        let Ok(()) = match &ext.node {
            ExternalDeclaration::Declaration(d) => visit::declaration(&mut a, d),
            ExternalDeclaration::StaticAssert(_) => Ok(()),
            ExternalDeclaration::FunctionDefinition(f) => function_with_specifiers(&mut a, f),
        };
    }
    (a.0, a.1)
}

/// The variables written exactly once in `body`, by a plain `x = rhs`, with that `rhs`.
/// Every `=`, compound assignment, `++`/`--` and `&x` (including
/// `__CPROVER_havoc_object(&x)`) counts as a write.
pub fn assigned_once(body: &Node<Statement>) -> HashMap<String, Node<Expression>> {
    use ladr_c::syntax::build::ident_name;
    use ladr_c::syntax::walk::{is_assign_op, is_inc_dec};
    #[derive(Default)]
    struct WriteCount {
        writes: HashMap<String, usize>,
        values: HashMap<String, Node<Expression>>,
    }
    impl Visitor for WriteCount {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            let target = match &e.node {
                Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                    let n = ident_name(&b.node.lhs);
                    if let (Some(n), BinaryOperator::Assign) = (n, &b.node.operator.node) {
                        self.values.insert(n.to_string(), (*b.node.rhs).clone());
                    }
                    n
                }
                Expression::UnaryOperator(u)
                    if is_inc_dec(&u.node.operator.node)
                        || u.node.operator.node == UnaryOperator::Address =>
                {
                    ident_name(&u.node.operand)
                }
                _ => None,
            };
            if let Some(n) = target {
                *self.writes.entry(n.to_string()).or_default() += 1;
            }
            Ok(Walk::Descend)
        }
    }
    let mut c = WriteCount::default();
    let Ok(()) = visit::stmt(&mut c, body);
    let writes = c.writes;
    c.values
        .into_iter()
        .filter(|(n, _)| writes.get(n) == Some(&1))
        .collect()
}

/// Is `name` one of ladr's own objects (model, scheduler, race flags: never data)? Not the
/// objects standing for C library functions' hidden state (`abi::libc_state`), which are
/// data that the library's calls access.
fn is_model_object(name: &str) -> bool {
    names::is_internal(name) && crate::abi::libc_state_group(name).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(src: &str, locals: &[&str]) -> Vars {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").expect("parses");
        Vars::new(&unit, &locals.iter().map(|s| s.to_string()).collect())
    }

    /// `largest_array`: the largest dimension and the largest element count of one array
    /// (the product of its dimensions), which `ladr-check` compares with its limits for
    /// `--arrays-uf-always`.
    #[test]
    fn largest_array_counts_dimensions_and_elements() {
        let of = |src: &str| {
            let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").expect("parses");
            largest_array(&unit)
        };
        assert_eq!(of("double b[1000][1000]; int a[10];"), (1000, 1_000_000));
        assert_eq!(of("int t[5000]; char c[2][3][4];"), (5000, 5000));
        assert_eq!(of("void f(void) { char c[2][3][4]; }"), (4, 24));
        assert_eq!(of("void f(int n) { double v[n][100]; }"), (100, 100));
        assert_eq!(of("int x; int *p;"), (0, 0));
    }

    #[test]
    fn a_havocked_local_stays_private_and_an_escaping_one_is_shared() {
        let v = vars(
            "int *q; void f(void) { static int a; static int b; \
             __CPROVER_havoc_object(&a); a = 1; q = &b; }",
            &["a", "b"],
        );
        assert!(!v.is_shared_var("a"));
        assert!(v.is_shared_var("b"));
        assert!(v.is_shared_var("q"));
    }

    #[test]
    fn a_pointer_from_a_statement_expression_is_scalar() {
        let v = vars(
            "struct s { int a; }; void f(void) { static int *p; \
             static __typeof__(({ int *m = p; (struct s *)((char *)m - 0); })) t; \
             static __typeof__(({ struct s x; x; })) u; t = 0; u.a = 1; }",
            &["t", "u"],
        );
        assert!(!v.is_shared_var("t"));
        assert!(v.is_shared_var("u"));
    }

    #[test]
    fn an_address_is_scalar() {
        // `<stdatomic.h>`'s `__auto_type __atomic_store_ptr = (&n->next);`, declared by
        // `normalise` with the type of its initialiser.
        let v = vars(
            "struct n { struct n *next; int a[2]; }; void f(void) { static struct n *m; \
             static __typeof__(&m->next) p; static __typeof__(&m->a) q; \
             static __typeof__(m->a) r; p = 0; q = 0; r[0] = 1; }",
            &["p", "q", "r"],
        );
        assert!(!v.is_shared_var("p"));
        assert!(!v.is_shared_var("q"));
        assert!(v.is_shared_var("r"));
    }

    #[test]
    fn a_copy_of_a_scalar_member_is_scalar() {
        let v = vars(
            "typedef void (*fn_t)(void *); struct j { fn_t fn; int a[2]; struct j *next; }; \
             struct k { int fn; }; struct m { int a; }; void f(void) { static struct j *p; \
             static __typeof__(p->fn) t; static __typeof__(p->a) u; \
             static __typeof__(p->next) w; t = 0; u[0] = 1; w = 0; }",
            &["t", "u", "w"],
        );
        assert!(!v.is_shared_var("t"));
        assert!(!v.is_shared_var("w"));
        // `a` is an array member of `struct j` (a scalar one of `struct m`): any doubt
        // leaves the copy shared.
        assert!(v.is_shared_var("u"));
    }

    #[test]
    fn assigned_once_counts_every_write() {
        let (_, unit, _) = ladr_c::frontend::parse_text(
            "void f(void) { int a, b, c; a = sizeof(int); b = 1; b = 2; c = 3; c++; }",
            "t.c",
        )
        .expect("parses");
        let ExternalDeclaration::FunctionDefinition(f) = &unit.0[0].node else {
            panic!("a function")
        };
        let once = assigned_once(&f.node.statement);
        assert_eq!(once.keys().collect::<Vec<_>>(), vec!["a"]);
    }
}
