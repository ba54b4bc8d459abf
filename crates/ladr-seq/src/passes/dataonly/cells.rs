//! The cells of `dataonly`'s analysis: one per variable (a file-scope name, or a local of
//! a function keyed by the function), one per function's result, one per allocation site,
//! and three for memory no variable names (a library's, memory the program cannot name,
//! literals); what each
//! variable's declared type says about arrays; the sets a value flows through.

use super::Scope;
use ladr_c::syntax::build::{declarator_name, innermost, is_function_declarator, parameter_names};
use ladr_ir::program::{Item, SlotCode};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap, HashSet};

pub type Cell = u32;
pub use super::set::Set;

/// Three answers to "is it an array".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    No,
    Maybe,
    Yes,
}

/// What a value may be read from (`reads`: its contents flow into the value) and what it
/// may point to (`addrs`).
#[derive(Clone, Debug, Default)]
pub struct Flow {
    pub reads: Set,
    pub addrs: Set,
}

impl Flow {
    pub fn addrs(addrs: Set) -> Flow {
        Flow {
            reads: Set::new(),
            addrs,
        }
    }

    pub fn join(&mut self, other: Flow) {
        self.reads.union_with(&other.reads);
        self.addrs.union_with(&other.addrs);
    }
}

/// A level of a declared type, outermost first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Array,
    Pointer,
    Function,
}

/// A variable's declared type: its levels, and whether the base type is surely no array
/// (a typedef or `__typeof__` might hide one).
#[derive(Clone, Debug, Default)]
pub struct Shape {
    levels: Vec<Level>,
    base_known: bool,
    /// Of a floating type (`float`, `double`, `long double`, `_Complex`).
    floating: bool,
}

impl Shape {
    /// Is the object reached after `k` indexings or dereferences an array?
    pub fn is_array(&self, k: usize) -> Tri {
        match self.levels.get(k) {
            Some(Level::Array) => Tri::Yes,
            Some(_) => Tri::No,
            None if self.base_known => Tri::No,
            None => Tri::Maybe,
        }
    }
}

pub struct Cells {
    ids: HashMap<String, Cell>,
    /// The key of each cell (a file-scope variable's name, `function\0name` for a local).
    keys: Vec<String>,
    shapes: HashMap<String, Shape>,
    functions: HashSet<String>,
    /// Each function's locals and parameters (not its `extern` declarations or
    /// prototypes, which name file-scope objects and functions).
    locals: HashMap<String, HashSet<String>>,
    /// The allocation sites' cells: one heap block per `malloc`/`calloc` call (by its
    /// span; copies of one call share it).
    sites: HashSet<Cell>,
    /// The memory functions without a body hand out.
    pub heap: Cell,
    pub invalid: Cell,
    pub literal: Cell,
}

const LOCAL: char = '\0';

impl Cells {
    pub fn new(unit: &TranslationUnit, code: &[SlotCode]) -> Cells {
        let mut c = Cells {
            ids: HashMap::new(),
            keys: vec![],
            shapes: HashMap::new(),
            functions: HashSet::new(),
            locals: HashMap::new(),
            sites: HashSet::new(),
            heap: 0,
            invalid: 0,
            literal: 0,
        };
        c.heap = c.intern(format!("{LOCAL}heap"));
        c.invalid = c.intern(format!("{LOCAL}invalid"));
        c.literal = c.intern(format!("{LOCAL}literal"));
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => c.declare(None, &d.node, false),
                ExternalDeclaration::FunctionDefinition(f) => {
                    let f = &f.node;
                    let name = declarator_name(&f.declarator.node).unwrap_or_default();
                    c.functions.insert(name.to_string());
                    c.declare_function(name, f);
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        for slot in code {
            for it in &slot.items {
                if let Item::Decl(d) = it {
                    c.declare(None, &d.node, false);
                }
            }
        }
        c
    }

    fn intern(&mut self, key: String) -> Cell {
        if let Some(&c) = self.ids.get(&key) {
            return c;
        }
        let c = self.keys.len() as Cell;
        self.ids.insert(key.clone(), c);
        self.keys.push(key);
        c
    }

    /// The cell of the variable `name` seen from `sc`.
    pub fn var(&mut self, sc: &Scope, name: &str) -> Cell {
        match &sc.function {
            Some(f) if sc.locals.contains(name) => self.local(f, name),
            _ => self.intern(name.to_string()),
        }
    }

    pub fn local(&mut self, function: &str, name: &str) -> Cell {
        self.intern(format!("{function}{LOCAL}{name}"))
    }

    /// The cell of the blocks the allocation call at `span` returns.
    pub fn site(&mut self, span: lang_c::span::Span) -> Cell {
        let c = self.intern(format!("{LOCAL}site {} {}", span.start, span.end));
        self.sites.insert(c);
        c
    }

    pub fn is_site(&self, c: Cell) -> bool {
        self.sites.contains(&c)
    }

    /// The cell of `function`'s result.
    pub fn result(&mut self, function: &str) -> Cell {
        self.intern(format!("{function}{LOCAL}{LOCAL}result"))
    }

    pub fn is_function(&self, name: &str) -> bool {
        self.functions.contains(name)
    }

    pub fn shape(&self, c: Cell) -> Shape {
        self.keys
            .get(c as usize)
            .and_then(|k| self.shapes.get(k))
            .cloned()
            .unwrap_or_default()
    }

    /// Is the lvalue `e` (seen from `sc`) an array? Known only for indexings and
    /// dereferences of a declared variable.
    pub fn shape_of(&mut self, sc: &Scope, e: &Node<Expression>) -> Tri {
        self.level_of(sc, e, |s, k| s.is_array(k))
    }

    /// Is the lvalue `e` surely an array or a pointer (so that in `e[i]` the index `i` is
    /// the integer)?
    pub fn is_base(&mut self, sc: &Scope, e: &Node<Expression>) -> bool {
        self.level_of(sc, e, |s, k| {
            if matches!(s.levels.get(k), Some(Level::Array | Level::Pointer)) {
                Tri::Yes
            } else {
                Tri::No
            }
        }) == Tri::Yes
    }

    fn level_of(
        &mut self,
        sc: &Scope,
        e: &Node<Expression>,
        at: impl Fn(&Shape, usize) -> Tri,
    ) -> Tri {
        let mut e = e;
        let mut k = 0;
        loop {
            match &e.node {
                Expression::Identifier(i) => {
                    let c = self.var(sc, &i.node.name);
                    return at(&self.shape(c), k);
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    k += 1;
                    e = &b.node.lhs;
                }
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    k += 1;
                    e = &u.node.operand;
                }
                _ => return Tri::Maybe,
            }
        }
    }

    /// The file-scope arrays, floating-point scalars and allocation sites no relevant
    /// value is read from: their stores can go. (Not other scalars, cheap and shown in the
    /// report's steps. A floating-point operation is thousands of clauses: DataRaceBench's
    /// `pi += 1.0 / (x*x + 1.0)` ran out of time at 2/2; a store at a symbolic index into
    /// a heap block of 2026 doubles ran CBMC out of memory at 2/2.)
    pub fn sliceable(&self, rel: &HashSet<Cell>) -> HashSet<Cell> {
        self.keys
            .iter()
            .enumerate()
            .filter(|(c, k)| {
                let c = *c as Cell;
                !rel.contains(&c)
                    && (self.sites.contains(&c)
                        || !k.contains(LOCAL)
                            && self.shapes.get(*k).is_some_and(|s| {
                                s.is_array(0) == Tri::Yes
                                    || (s.floating && s.base_known && s.levels.is_empty())
                            }))
            })
            .map(|(c, _)| c as Cell)
            .collect()
    }

    /// The file-scope variables no relevant value is read from.
    pub fn named_data_only(&self, rel: &HashSet<Cell>) -> BTreeSet<String> {
        self.keys
            .iter()
            .enumerate()
            .filter(|(c, k)| {
                !k.contains(LOCAL) && !rel.contains(&(*c as Cell)) && self.shapes.contains_key(*k)
            })
            .map(|(_, k)| k.clone())
            .collect()
    }

    /// The scope of function `name`'s body.
    pub fn scope(&self, name: &str) -> Scope {
        Scope {
            function: Some(name.to_string()),
            locals: self.locals.get(name).cloned().unwrap_or_default(),
        }
    }

    fn declare_function(&mut self, name: &str, f: &FunctionDefinition) {
        self.locals.insert(
            name.to_string(),
            parameter_names(&f.declarator.node).into_iter().collect(),
        );
        for x in &innermost(&f.declarator.node).derived {
            if let DerivedDeclarator::Function(fd) = &x.node {
                for p in &fd.node.parameters {
                    let Some(d) = &p.node.declarator else {
                        continue;
                    };
                    if let Some(n) = declarator_name(&d.node) {
                        let mut s = shape(&p.node.specifiers, &d.node);
                        // An array parameter is a pointer.
                        if let Some(l) = s.levels.first_mut() {
                            if *l == Level::Array {
                                *l = Level::Pointer;
                            }
                        }
                        self.shapes.insert(format!("{name}{LOCAL}{n}"), s);
                    }
                }
                break;
            }
        }
        let mut decls = vec![];
        collect_declarations(&f.statement, &mut decls);
        for d in decls {
            self.declare(Some(name), d, true);
        }
    }

    fn declare(&mut self, function: Option<&str>, d: &Declaration, local: bool) {
        if d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Typedef)
        }) {
            return;
        }
        for init in &d.declarators {
            let decl = &init.node.declarator.node;
            let Some(n) = declarator_name(decl) else {
                continue;
            };
            if is_function_declarator(decl) {
                self.functions.insert(n.to_string());
                continue;
            }
            if local && is_extern(d) {
                continue;
            }
            let key = match function {
                Some(f) if local => {
                    self.locals
                        .entry(f.to_string())
                        .or_default()
                        .insert(n.to_string());
                    format!("{f}{LOCAL}{n}")
                }
                _ => n.to_string(),
            };
            let s = shape(&d.specifiers, decl);
            // Two declarations of one name that disagree: nothing is known.
            match self.shapes.get(&key) {
                Some(old) if old.levels != s.levels || old.base_known != s.base_known => {
                    self.shapes.insert(key, Shape::default());
                }
                _ => {
                    self.shapes.insert(key, s);
                }
            }
        }
    }
}

fn is_extern(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(c)
            if c.node == StorageClassSpecifier::Extern)
    })
}

/// The declarations inside `s`, at any depth.
fn collect_declarations<'a>(s: &'a Node<Statement>, out: &mut Vec<&'a Declaration>) {
    match &s.node {
        Statement::Compound(items) => {
            for it in items {
                match &it.node {
                    BlockItem::Declaration(d) => out.push(&d.node),
                    BlockItem::Statement(s) => collect_declarations(s, out),
                    BlockItem::StaticAssert(_) => {}
                }
            }
        }
        Statement::Labeled(l) => collect_declarations(&l.node.statement, out),
        Statement::If(i) => {
            collect_declarations(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_declarations(e, out);
            }
        }
        Statement::Switch(w) => collect_declarations(&w.node.statement, out),
        Statement::While(w) => collect_declarations(&w.node.statement, out),
        Statement::DoWhile(w) => collect_declarations(&w.node.statement, out),
        Statement::For(f) => {
            if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                out.push(&d.node);
            }
            collect_declarations(&f.node.statement, out);
        }
        _ => {}
    }
}

/// The shape of the object declared by `d` with `specs`.
fn shape(specs: &[Node<DeclarationSpecifier>], d: &Declarator) -> Shape {
    let base_known = specs.iter().all(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::TypedefName(_) => false,
            // A call's type is no array (a function cannot return one): the normaliser's
            // temporaries of calls (`__typeof__(malloc(n)) t; t = malloc(n);`).
            TypeSpecifier::TypeOf(x) => {
                matches!(&x.node, TypeOf::Expression(e) if matches!(e.node, Expression::Call(_)))
            }
            _ => true,
        },
        _ => true,
    });
    let floating = specs.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
            if matches!(t.node, TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::Complex))
    });
    Shape {
        levels: levels(d),
        base_known,
        floating,
    }
}

/// A declarator's levels, outermost first: an inner declarator's first (`(*b)[4]`: a
/// pointer to arrays), then this one's suffixes in order, then its pointers (lang-c lists
/// pointers before suffixes: `*q[2]` is an array of pointers).
fn levels(d: &Declarator) -> Vec<Level> {
    let mut out = match &d.kind.node {
        DeclaratorKind::Declarator(inner) => levels(&inner.node),
        _ => vec![],
    };
    let mut pointers = 0;
    for x in &d.derived {
        match x.node {
            DerivedDeclarator::Pointer(_) => pointers += 1,
            DerivedDeclarator::Array(_) => out.push(Level::Array),
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => {
                out.push(Level::Function)
            }
            DerivedDeclarator::Block(_) => out.push(Level::Pointer),
        }
    }
    out.extend(std::iter::repeat_n(Level::Pointer, pointers));
    out
}
