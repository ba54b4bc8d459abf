//! Variables as the OpenMP lowering sees them: a declaration's specifiers and declarator,
//! from which it declares private copies (same type), pointers to the original (`T (*x)`)
//! and pointers to an array's first element (`T (*a)[m]` for `T a[n][m]`).

use crate::syntax::build::*;
use crate::syntax::constant::{is_constant, Env};
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

/// A declared variable: its specifiers (storage classes dropped) and declarator.
#[derive(Clone, Debug)]
pub struct Var {
    pub specs: Vec<Node<DeclarationSpecifier>>,
    pub declarator: Node<Declarator>,
    /// Declared `static` or `extern` (one object for every call of the function).
    pub static_storage: bool,
}

/// The type a declaration from a [`Var`] gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Form {
    /// The variable's own type.
    Same,
    /// A pointer to it: `x` → `(*x)`.
    Pointer,
    /// A pointer to its first element (an array): `a[n]...` → `(*a)...`.
    Element,
}

impl Var {
    /// A variable of declaration `specs` with `declarator`; a parameter of array type is
    /// the pointer it is adjusted to.
    pub fn new(
        specs: &[Node<DeclarationSpecifier>],
        declarator: &Node<Declarator>,
        param: bool,
    ) -> Var {
        let static_storage = specs.iter().any(|s| {
            matches!(
                &s.node,
                DeclarationSpecifier::StorageClass(c)
                    if matches!(c.node, StorageClassSpecifier::Static | StorageClassSpecifier::Extern)
            )
        });
        let specs = specs
            .iter()
            .filter(|s| {
                !matches!(
                    s.node,
                    DeclarationSpecifier::StorageClass(_) | DeclarationSpecifier::Function(_)
                )
            })
            .cloned()
            .collect();
        let mut v = Var {
            specs,
            declarator: declarator.clone(),
            static_storage,
        };
        if param && v.is_array() {
            v.declarator = v.shaped(Form::Element);
        }
        v
    }

    /// The array suffixes of the declared name (its own dimensions), outermost first.
    fn dims(&self) -> Vec<&ArrayDeclarator> {
        innermost(&self.declarator.node)
            .derived
            .iter()
            .filter_map(|d| match &d.node {
                DerivedDeclarator::Array(a) => Some(&a.node),
                _ => None,
            })
            .collect()
    }

    pub fn is_array(&self) -> bool {
        !self.dims().is_empty()
    }

    /// A variable-length dimension at `depth` (0: the outermost).
    fn variable_dim(&self, from: usize) -> bool {
        self.dims().iter().skip(from).any(|a| match &a.size {
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                !is_constant(&e.node, &Env::none())
            }
            _ => false,
        })
    }

    /// Any variable-length dimension (a private copy of it cannot be declared elsewhere).
    pub fn is_vla(&self) -> bool {
        self.variable_dim(0)
    }

    /// Whether a pointer to its first element can be declared outside its scope (every
    /// dimension but the first is a constant).
    pub fn element_pointer_ok(&self) -> bool {
        !self.variable_dim(1)
    }

    /// The number of its own dimensions.
    pub fn rank(&self) -> usize {
        self.dims().len()
    }

    /// The same variable with the sizes of dimensions 1.. (all but the outermost) replaced
    /// by `sizes` (a variable-length array's dimensions as read at a region's start).
    pub fn with_inner_sizes(&self, sizes: Vec<Node<Expression>>) -> Var {
        let mut v = self.clone();
        let mut sizes = sizes.into_iter();
        let inner = innermost_mut(&mut v.declarator.node);
        let mut first = true;
        for d in &mut inner.derived {
            if let DerivedDeclarator::Array(a) = &mut d.node {
                if first {
                    first = false;
                } else if let Some(e) = sizes.next() {
                    a.node.size = ArraySize::VariableExpression(Box::new(e));
                }
            }
        }
        v
    }

    /// The declarator in `form`, with its name kept.
    fn shaped(&self, form: Form) -> Node<Declarator> {
        let mut d = self.declarator.clone();
        d.node.extensions.clear();
        if form == Form::Same {
            return d;
        }
        let inner = innermost_mut(&mut d.node);
        if form == Form::Element {
            if let Some(at) = inner
                .derived
                .iter()
                .position(|x| matches!(x.node, DerivedDeclarator::Array(_)))
            {
                inner.derived.remove(at);
            }
        }
        let span = inner.kind.span;
        let old = std::mem::replace(&mut inner.kind, node(DeclaratorKind::Abstract, span));
        let pointer = Declarator {
            kind: old,
            derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
            extensions: vec![],
        };
        inner.kind = node(
            DeclaratorKind::Declarator(Box::new(node(pointer, span))),
            span,
        );
        d
    }

    /// `[static] T name = init;` with the variable's type in `form`; `const` dropped for
    /// [`Form::Same`] (a private copy is assigned).
    pub fn declare(
        &self,
        name: &str,
        form: Form,
        init: Option<Node<Expression>>,
        is_static: bool,
        span: Span,
    ) -> Node<Declaration> {
        let mut d = self.shaped(form);
        if let Some(n) = declarator_name_mut(&mut d.node) {
            n.name = name.to_string();
        }
        let mut specs: Vec<_> = self
            .specs
            .iter()
            .filter(|s| {
                form != Form::Same
                    || !matches!(&s.node, DeclarationSpecifier::TypeQualifier(q)
                        if matches!(q.node, TypeQualifier::Const))
            })
            .cloned()
            .collect();
        if is_static {
            specs.insert(0, storage(StorageClassSpecifier::Static, span));
        }
        declare(
            specs,
            d,
            init.map(|e| node(Initializer::Expression(Box::new(e)), span)),
            span,
        )
    }
}

/// The variables a declaration declares (not typedefs, not functions).
pub fn declared(d: &Declaration) -> Vec<(String, Var)> {
    if is_typedef(d) {
        return vec![];
    }
    d.declarators
        .iter()
        .filter(|i| !is_function_declarator(&i.node.declarator.node))
        .filter_map(|i| {
            let name = declarator_name(&i.node.declarator.node)?.to_string();
            Some((name, Var::new(&d.specifiers, &i.node.declarator, false)))
        })
        .collect()
}

/// The parameters of a function definition's declarator.
pub fn parameters(d: &Declarator) -> Vec<(String, Var)> {
    let f = d.derived.iter().find_map(|x| match &x.node {
        DerivedDeclarator::Function(f) => Some(f),
        _ => None,
    });
    let Some(f) = f else { return vec![] };
    f.node
        .parameters
        .iter()
        .filter_map(|p| {
            let decl = p.node.declarator.as_ref()?;
            let name = declarator_name(&decl.node)?.to_string();
            Some((name, Var::new(&p.node.specifiers, decl, true)))
        })
        .collect()
}

/// The names whose address a function body takes (`&x`).
pub fn addressed(s: &Node<Statement>) -> HashSet<String> {
    struct A(HashSet<String>);
    impl Visitor for A {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::UnaryOperator(u) = &e.node {
                if u.node.operator.node == UnaryOperator::Address {
                    if let Some(n) = ident_name(&u.node.operand) {
                        self.0.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut a = A(HashSet::new());
    let Ok(()) = visit::stmt(&mut a, s);
    a.0
}
