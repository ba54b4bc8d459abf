//! One walker over the lang-c AST, read-only ([`visit::Visitor`]) and mutable
//! ([`visit_mut::VisitorMut`]), both generated from one definition so they walk the same
//! children in the same order.
//!
//! A visitor overrides the hooks it needs (`expr`, `stmt`, `block_item`, `declaration`,
//! `declarator`, `type_name`, `type_specifier`, `label`); every hook answers:
//!
//! * [`Walk::Descend`]: the walker goes on into the node's children;
//! * [`Walk::Skip`]: it does not (the hook may have walked them itself with the
//!   `*_children` functions, e.g. to act after them, or to open and close a scope);
//! * replace: a mutable hook assigns the new node to `*e` and answers `Descend` to have the
//!   replacement walked or `Skip` to leave it as it is;
//! * an error (`Err(e)`, of the visitor's `Error` type): the walk stops and the walk
//!   function returns it.
//!
//! A mutable visitor may queue block items to insert before the block item being walked
//! ([`Queue`], returned by [`visit_mut::VisitorMut::queue`]); the walker inserts them when it
//! has walked that item. No pass needs it yet (where one adds code before a statement, it
//! replaces the statement by a block `{ …; s }`, which also works for an `if` branch); the
//! tests below pin its behaviour.
//!
//! Operands that C does not evaluate (`sizeof`, `_Alignof`, `__typeof__`) are known here
//! only: a visitor sets `const UNEVALUATED: bool = false` and the walker does not enter them.
//!
//! ```ignore
//! // Renames `x` to `y` everywhere but in unevaluated operands.
//! struct R;
//! impl VisitorMut for R {
//!     type Error = std::convert::Infallible;
//!     const UNEVALUATED: bool = false;
//!     fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Self::Error> {
//!         if let Expression::Identifier(i) = &mut e.node {
//!             if i.node.name == "x" { i.node.name = "y".into(); }
//!         }
//!         Ok(Walk::Descend)
//!     }
//! }
//! let Ok(()) = visit_mut::stmt(&mut R, &mut body);
//! ```
//!
//! The walk functions are named after the node (`visit_mut::stmt(v, s)`: the hook, then the
//! children if it answers `Descend`); `*_children` walks the children only
//! (`expr_children` and `stmt_children` take the bare `Expression` / `Statement`, so a query
//! on an unspanned node needs no copy).
//!
//! This is the only walker of the crates: lang-c's own `visit::Visit` is not used (it has
//! no answers, no errors and no mutable form).

use lang_c::ast::*;
use lang_c::span::Node;

// ---------------------------------------------------------------------------------------
// The walker: one definition, generated twice (read-only and mutable) by `walker!`.
// ---------------------------------------------------------------------------------------

/// A hook's answer: walk the node's children, or not. A hook replaces a node by assigning
/// to it (mutable walk) and then answers [`Walk::Descend`] to walk the replacement or
/// [`Walk::Skip`] to leave it as it is (CIL's ChangeDoChildrenPost / ChangeTo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    Descend,
    Skip,
}

/// Statements a mutable visitor asks to insert before the block item being walked. The
/// walker inserts them when it has walked that item (they are not walked themselves). A
/// visitor that inserts owns one queue and returns it from [`VisitorMut::queue`].
#[derive(Default, Debug)]
pub struct Queue {
    before: Vec<Node<BlockItem>>,
}

impl Queue {
    /// Inserts `item` before the block item now being walked (after earlier insertions).
    pub fn insert_before(&mut self, item: Node<BlockItem>) {
        self.before.push(item);
    }
    /// Inserts a statement before the block item now being walked.
    pub fn insert_stmt_before(&mut self, s: Node<Statement>) {
        let span = s.span;
        self.before.push(Node::new(BlockItem::Statement(s), span));
    }
    /// Statements queued outside any block (the walk started below one); the caller
    /// decides where they go.
    pub fn take(&mut self) -> Vec<Node<BlockItem>> {
        std::mem::take(&mut self.before)
    }
}

macro_rules! walker {
    ($(#[$doc:meta])* trait $Trait:ident, [$($m:tt)?], $items:ident) => {
        $(#[$doc])*
        pub trait $Trait {
            /// Why a hook stops the walk (`std::convert::Infallible` if it never does).
            type Error;
            /// Whether the walk enters operands that are not evaluated: of `sizeof`,
            /// `_Alignof` and `__typeof__` (and the type names of `sizeof`/`_Alignof`).
            /// Visitors that look for evaluations, accesses or effects set it to `false`.
            const UNEVALUATED: bool = true;
            fn expr(&mut self, _e: & $($m)? Node<Expression>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            fn stmt(&mut self, _s: & $($m)? Node<Statement>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            /// An item of a `{ … }` block (a declaration or a statement).
            fn block_item(&mut self, _i: & $($m)? Node<BlockItem>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            fn declaration(&mut self, _d: & $($m)? Node<Declaration>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            fn declarator(&mut self, _d: & $($m)? Node<Declarator>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            fn type_name(&mut self, _t: & $($m)? Node<TypeName>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            /// A type specifier (of a declaration, a parameter, a type name or a struct
            /// field): `struct { … }`, `enum { … }`, `__typeof__(…)`, `int`, ….
            fn type_specifier(&mut self, _t: & $($m)? Node<TypeSpecifier>) -> Result<Walk, Self::Error> {
                Ok(Walk::Descend)
            }
            /// Labels of labeled statements and goto targets.
            fn label(&mut self, _l: & $($m)? Identifier) -> Result<(), Self::Error> {
                Ok(())
            }
            /// The visitor's insert-before queue, if it inserts statements.
            fn queue(&mut self) -> Option<&mut Queue> {
                None
            }
        }

        /// Walks an expression: its hook, then (if it answers `Descend`) its children.
        pub fn expr<V: $Trait + ?Sized>(v: &mut V, e: & $($m)? Node<Expression>) -> Result<(), V::Error> {
            if v.expr(e)? == Walk::Descend {
                expr_children(v, & $($m)? e.node)?;
            }
            Ok(())
        }

        /// Walks a statement: its hook, then (if it answers `Descend`) its children.
        pub fn stmt<V: $Trait + ?Sized>(v: &mut V, s: & $($m)? Node<Statement>) -> Result<(), V::Error> {
            if v.stmt(s)? == Walk::Descend {
                stmt_children(v, & $($m)? s.node)?;
            }
            Ok(())
        }

        pub fn block_item<V: $Trait + ?Sized>(v: &mut V, i: & $($m)? Node<BlockItem>) -> Result<(), V::Error> {
            if v.block_item(i)? == Walk::Descend {
                match & $($m)? i.node {
                    BlockItem::Declaration(d) => declaration(v, d)?,
                    BlockItem::StaticAssert(_) => {}
                    BlockItem::Statement(s) => stmt(v, s)?,
                }
            }
            Ok(())
        }

        pub fn declaration<V: $Trait + ?Sized>(v: &mut V, d: & $($m)? Node<Declaration>) -> Result<(), V::Error> {
            if v.declaration(d)? == Walk::Descend {
                declaration_children(v, d)?;
            }
            Ok(())
        }

        pub fn declarator<V: $Trait + ?Sized>(v: &mut V, d: & $($m)? Node<Declarator>) -> Result<(), V::Error> {
            if v.declarator(d)? == Walk::Descend {
                declarator_children(v, d)?;
            }
            Ok(())
        }

        pub fn type_name<V: $Trait + ?Sized>(v: &mut V, t: & $($m)? Node<TypeName>) -> Result<(), V::Error> {
            if v.type_name(t)? == Walk::Descend {
                type_name_children(v, t)?;
            }
            Ok(())
        }

        /// The children of an expression (for a hook that walks them itself, e.g. to act
        /// after them, and then answers `Skip`).
        pub fn expr_children<V: $Trait + ?Sized>(v: &mut V, e: & $($m)? Expression) -> Result<(), V::Error> {
            match e {
                Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => {}
                Expression::GenericSelection(g) => {
                    expr(v, & $($m)? g.node.expression)?;
                    for a in & $($m)? g.node.associations {
                        match & $($m)? a.node {
                            GenericAssociation::Type(t) => {
                                type_name(v, & $($m)? t.node.type_name)?;
                                expr(v, & $($m)? t.node.expression)?;
                            }
                            GenericAssociation::Default(d) => expr(v, d)?,
                        }
                    }
                }
                Expression::Member(m) => expr(v, & $($m)? m.node.expression)?,
                Expression::Call(c) => {
                    expr(v, & $($m)? c.node.callee)?;
                    for a in & $($m)? c.node.arguments {
                        expr(v, a)?;
                    }
                }
                Expression::CompoundLiteral(c) => {
                    type_name(v, & $($m)? c.node.type_name)?;
                    for i in & $($m)? c.node.initializer_list {
                        init_item(v, i)?;
                    }
                }
                Expression::SizeOfTy(s) => {
                    if V::UNEVALUATED {
                        type_name(v, & $($m)? s.node.0)?;
                    }
                }
                Expression::SizeOfVal(s) => {
                    if V::UNEVALUATED {
                        expr(v, & $($m)? s.node.0)?;
                    }
                }
                Expression::AlignOf(a) => {
                    if V::UNEVALUATED {
                        type_name(v, & $($m)? a.node.0)?;
                    }
                }
                Expression::UnaryOperator(u) => expr(v, & $($m)? u.node.operand)?,
                Expression::Cast(c) => {
                    type_name(v, & $($m)? c.node.type_name)?;
                    expr(v, & $($m)? c.node.expression)?;
                }
                Expression::BinaryOperator(b) => {
                    expr(v, & $($m)? b.node.lhs)?;
                    expr(v, & $($m)? b.node.rhs)?;
                }
                Expression::Conditional(c) => {
                    expr(v, & $($m)? c.node.condition)?;
                    expr(v, & $($m)? c.node.then_expression)?;
                    expr(v, & $($m)? c.node.else_expression)?;
                }
                Expression::Comma(es) => {
                    for x in & $($m)? **es {
                        expr(v, x)?;
                    }
                }
                Expression::OffsetOf(o) => {
                    type_name(v, & $($m)? o.node.type_name)?;
                    for mb in & $($m)? o.node.designator.node.members {
                        if let OffsetMember::Index(i) = & $($m)? mb.node {
                            expr(v, i)?;
                        }
                    }
                }
                Expression::VaArg(va) => {
                    expr(v, & $($m)? va.node.va_list)?;
                    type_name(v, & $($m)? va.node.type_name)?;
                }
                Expression::Statement(s) => stmt(v, s)?,
            }
            Ok(())
        }

        pub fn init_item<V: $Trait + ?Sized>(v: &mut V, i: & $($m)? Node<InitializerListItem>) -> Result<(), V::Error> {
            for d in & $($m)? i.node.designation {
                match & $($m)? d.node {
                    Designator::Index(e) => expr(v, e)?,
                    Designator::Member(_) => {}
                    Designator::Range(r) => {
                        expr(v, & $($m)? r.node.from)?;
                        expr(v, & $($m)? r.node.to)?;
                    }
                }
            }
            initializer(v, & $($m)? i.node.initializer)
        }

        pub fn initializer<V: $Trait + ?Sized>(v: &mut V, i: & $($m)? Node<Initializer>) -> Result<(), V::Error> {
            match & $($m)? i.node {
                Initializer::Expression(e) => expr(v, e),
                Initializer::List(items) => {
                    for it in items {
                        init_item(v, it)?;
                    }
                    Ok(())
                }
            }
        }

        /// The children of a statement.
        pub fn stmt_children<V: $Trait + ?Sized>(v: &mut V, s: & $($m)? Statement) -> Result<(), V::Error> {
            match s {
                Statement::Labeled(l) => {
                    match & $($m)? l.node.label.node {
                        Label::Identifier(i) => v.label(& $($m)? i.node)?,
                        Label::Case(e) => expr(v, e)?,
                        Label::CaseRange(r) => {
                            expr(v, & $($m)? r.node.low)?;
                            expr(v, & $($m)? r.node.high)?;
                        }
                        Label::Default => {}
                    }
                    stmt(v, & $($m)? l.node.statement)?;
                }
                Statement::Compound(items) => $items(v, items)?,
                Statement::Expression(e) => {
                    if let Some(e) = e {
                        expr(v, e)?;
                    }
                }
                Statement::If(i) => {
                    expr(v, & $($m)? i.node.condition)?;
                    stmt(v, & $($m)? i.node.then_statement)?;
                    if let Some(e) = & $($m)? i.node.else_statement {
                        stmt(v, e)?;
                    }
                }
                Statement::Switch(sw) => {
                    expr(v, & $($m)? sw.node.expression)?;
                    stmt(v, & $($m)? sw.node.statement)?;
                }
                Statement::While(w) => {
                    expr(v, & $($m)? w.node.expression)?;
                    stmt(v, & $($m)? w.node.statement)?;
                }
                Statement::DoWhile(d) => {
                    stmt(v, & $($m)? d.node.statement)?;
                    expr(v, & $($m)? d.node.expression)?;
                }
                Statement::For(f) => {
                    match & $($m)? f.node.initializer.node {
                        ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                        ForInitializer::Expression(e) => expr(v, e)?,
                        ForInitializer::Declaration(d) => declaration(v, d)?,
                    }
                    if let Some(c) = & $($m)? f.node.condition {
                        expr(v, c)?;
                    }
                    if let Some(c) = & $($m)? f.node.step {
                        expr(v, c)?;
                    }
                    stmt(v, & $($m)? f.node.statement)?;
                }
                Statement::Goto(l) => v.label(& $($m)? l.node)?,
                Statement::Continue | Statement::Break => {}
                Statement::Return(e) => {
                    if let Some(e) = e {
                        expr(v, e)?;
                    }
                }
                Statement::Asm(a) => {
                    if let AsmStatement::GnuExtended(g) = & $($m)? a.node {
                        for o in & $($m)? g.outputs {
                            expr(v, & $($m)? o.node.variable_name)?;
                        }
                        for o in & $($m)? g.inputs {
                            expr(v, & $($m)? o.node.variable_name)?;
                        }
                    }
                }
            }
            Ok(())
        }

        /// The children of a declaration: specifiers, then each declarator and its
        /// initialiser.
        pub fn declaration_children<V: $Trait + ?Sized>(v: &mut V, d: & $($m)? Node<Declaration>) -> Result<(), V::Error> {
            for s in & $($m)? d.node.specifiers {
                decl_specifier(v, s)?;
            }
            for id in & $($m)? d.node.declarators {
                declarator(v, & $($m)? id.node.declarator)?;
                if let Some(i) = & $($m)? id.node.initializer {
                    initializer(v, i)?;
                }
            }
            Ok(())
        }

        pub fn decl_specifier<V: $Trait + ?Sized>(v: &mut V, s: & $($m)? Node<DeclarationSpecifier>) -> Result<(), V::Error> {
            if let DeclarationSpecifier::TypeSpecifier(t) = & $($m)? s.node {
                type_specifier(v, t)?;
            }
            Ok(())
        }

        pub fn type_specifier<V: $Trait + ?Sized>(v: &mut V, t: & $($m)? Node<TypeSpecifier>) -> Result<(), V::Error> {
            if v.type_specifier(t)? == Walk::Descend {
                type_specifier_children(v, t)?;
            }
            Ok(())
        }

        /// The children of a type specifier: the fields of a struct, the values of an
        /// enum's constants, the operand of `__typeof__` (if `UNEVALUATED`), the type of
        /// `_Atomic(…)`.
        pub fn type_specifier_children<V: $Trait + ?Sized>(v: &mut V, t: & $($m)? Node<TypeSpecifier>) -> Result<(), V::Error> {
            match & $($m)? t.node {
                TypeSpecifier::TypeOf(to) if V::UNEVALUATED => match & $($m)? to.node {
                    TypeOf::Expression(e) => expr(v, e)?,
                    TypeOf::Type(tn) => type_name(v, tn)?,
                },
                TypeSpecifier::Atomic(tn) => type_name(v, tn)?,
                TypeSpecifier::Struct(st) => {
                    if let Some(decls) = & $($m)? st.node.declarations {
                        for d in decls {
                            if let StructDeclaration::Field(f) = & $($m)? d.node {
                                for s in & $($m)? f.node.specifiers {
                                    if let SpecifierQualifier::TypeSpecifier(t) = & $($m)? s.node {
                                        type_specifier(v, t)?;
                                    }
                                }
                                for sd in & $($m)? f.node.declarators {
                                    if let Some(d) = & $($m)? sd.node.declarator {
                                        declarator(v, d)?;
                                    }
                                }
                            }
                        }
                    }
                }
                TypeSpecifier::Enum(en) => {
                    for e in & $($m)? en.node.enumerators {
                        if let Some(x) = & $($m)? e.node.expression {
                            expr(v, x)?;
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        }

        /// The children of a declarator: array sizes, parameters, nested declarators.
        pub fn declarator_children<V: $Trait + ?Sized>(v: &mut V, d: & $($m)? Node<Declarator>) -> Result<(), V::Error> {
            if let DeclaratorKind::Declarator(inner) = & $($m)? d.node.kind.node {
                declarator(v, inner)?;
            }
            for dd in & $($m)? d.node.derived {
                match & $($m)? dd.node {
                    DerivedDeclarator::Array(a) => match & $($m)? a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => expr(v, e)?,
                        _ => {}
                    },
                    DerivedDeclarator::Function(f) => {
                        for p in & $($m)? f.node.parameters {
                            for s in & $($m)? p.node.specifiers {
                                decl_specifier(v, s)?;
                            }
                            if let Some(d) = & $($m)? p.node.declarator {
                                declarator(v, d)?;
                            }
                        }
                    }
                    _ => {}
                }
            }
            Ok(())
        }

        pub fn type_name_children<V: $Trait + ?Sized>(v: &mut V, t: & $($m)? Node<TypeName>) -> Result<(), V::Error> {
            for s in & $($m)? t.node.specifiers {
                if let SpecifierQualifier::TypeSpecifier(ts) = & $($m)? s.node {
                    type_specifier(v, ts)?;
                }
            }
            if let Some(d) = & $($m)? t.node.declarator {
                declarator(v, d)?;
            }
            Ok(())
        }

        /// A function definition: declarator, K&R declarations, body.
        pub fn function<V: $Trait + ?Sized>(v: &mut V, f: & $($m)? Node<FunctionDefinition>) -> Result<(), V::Error> {
            declarator(v, & $($m)? f.node.declarator)?;
            for d in & $($m)? f.node.declarations {
                declaration(v, d)?;
            }
            stmt(v, & $($m)? f.node.statement)
        }

        /// Every function definition and global declaration of a unit.
        pub fn unit<V: $Trait + ?Sized>(v: &mut V, unit: & $($m)? TranslationUnit) -> Result<(), V::Error> {
            for ext in & $($m)? unit.0 {
                match & $($m)? ext.node {
                    ExternalDeclaration::Declaration(d) => declaration(v, d)?,
                    ExternalDeclaration::StaticAssert(_) => {}
                    ExternalDeclaration::FunctionDefinition(f) => function(v, f)?,
                }
            }
            Ok(())
        }
    };
}

/// The read-only walker.
pub mod visit {
    use super::{Queue, Walk};
    use lang_c::ast::*;
    use lang_c::span::Node;

    walker!(
        /// A read-only visitor (queries: no clone of the tree is needed). Its
        /// [`Visitor::queue`] is never used.
        trait Visitor,
        [],
        block_items
    );

    /// The items of a block, in order.
    pub fn block_items<V: Visitor + ?Sized>(
        v: &mut V,
        items: &Vec<Node<BlockItem>>,
    ) -> Result<(), V::Error> {
        for it in items {
            block_item(v, it)?;
        }
        Ok(())
    }
}

/// The mutable walker.
pub mod visit_mut {
    use super::{Queue, Walk};
    use lang_c::ast::*;
    use lang_c::span::Node;

    walker!(
        /// A mutable visitor.
        trait VisitorMut,
        [mut],
        block_items
    );

    /// The items of a block, in order, with the items the visitor queues while walking
    /// one inserted before it.
    pub fn block_items<V: VisitorMut + ?Sized>(
        v: &mut V,
        items: &mut Vec<Node<BlockItem>>,
    ) -> Result<(), V::Error> {
        // Items queued by an enclosing block item wait until this block is left.
        let outer = v.queue().map(|q| q.take()).unwrap_or_default();
        let mut rest = std::mem::take(items).into_iter();
        let mut result = Ok(());
        for mut it in rest.by_ref() {
            result = block_item(v, &mut it);
            if let Some(q) = v.queue() {
                items.append(&mut q.take());
            }
            items.push(it);
            if result.is_err() {
                break;
            }
        }
        items.extend(rest);
        if let Some(q) = v.queue() {
            q.before = outer;
        }
        result
    }
}

/// True if `e` (or any subexpression outside `sizeof`) has a side effect: assignment,
/// increment/decrement, call, statement expression, or `va_arg` (which advances its list).
pub fn has_side_effect(e: &Expression) -> bool {
    struct Finder;
    impl Finder {
        fn effect(e: &Expression) -> bool {
            match e {
                Expression::Call(_) | Expression::Statement(_) | Expression::VaArg(_) => true,
                Expression::BinaryOperator(b) => is_assign_op(&b.node.operator.node),
                Expression::UnaryOperator(u) => is_inc_dec(&u.node.operator.node),
                _ => false,
            }
        }
    }
    impl visit::Visitor for Finder {
        /// Found one.
        type Error = ();
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, ()> {
            if Finder::effect(&e.node) {
                return Err(());
            }
            Ok(Walk::Descend)
        }
        fn type_name(&mut self, _t: &Node<TypeName>) -> Result<Walk, ()> {
            Ok(Walk::Skip)
        }
    }
    Finder::effect(e) || visit::expr_children(&mut Finder, e).is_err()
}

/// `++` or `--`, prefix or postfix.
pub fn is_inc_dec(op: &UnaryOperator) -> bool {
    use UnaryOperator::*;
    matches!(
        op,
        PostIncrement | PostDecrement | PreIncrement | PreDecrement
    )
}

pub fn is_assign_op(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(
        op,
        Assign
            | AssignMultiply
            | AssignDivide
            | AssignModulo
            | AssignPlus
            | AssignMinus
            | AssignShiftLeft
            | AssignShiftRight
            | AssignBitwiseAnd
            | AssignBitwiseXor
            | AssignBitwiseOr
    )
}

/// The variables a walk meets written or with their address taken, each named directly
/// (`x = …`, `x += …`, `x++`, `&x`; evaluated operands only): what no analysis may take
/// for a constant. Walk statements and declarations with it, then read `.0`.
#[derive(Default)]
pub struct WrittenNames(pub std::collections::HashSet<String>);

impl visit::Visitor for WrittenNames {
    type Error = std::convert::Infallible;
    const UNEVALUATED: bool = false;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
        let target = match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                Some(&b.node.lhs.node)
            }
            Expression::UnaryOperator(u)
                if is_inc_dec(&u.node.operator.node)
                    || u.node.operator.node == UnaryOperator::Address =>
            {
                Some(&u.node.operand.node)
            }
            _ => None,
        };
        if let Some(Expression::Identifier(i)) = target {
            self.0.insert(i.node.name.clone());
        }
        Ok(Walk::Descend)
    }
}

/// True if the statement names one of `names` as an identifier expression.
pub fn mentions(s: &Node<Statement>, names: &[&str]) -> bool {
    struct Finder<'a>(&'a [&'a str]);
    impl visit::Visitor for Finder<'_> {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, ()> {
            match &e.node {
                Expression::Identifier(i) if self.0.contains(&i.node.name.as_str()) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::stmt(&mut Finder(names), s).is_err()
}

#[cfg(test)]
mod tests {
    use super::visit_mut::{self, VisitorMut};
    use super::*;
    use crate::print::statement_to_string;
    use crate::syntax::build::{call, expr_stmt, ident};
    use lang_c::span::Span;

    /// Queues `mark();` before the block item in which it meets `x`; stops at `stop`;
    /// counts the `mark`s it is shown (queued items must not be walked).
    #[derive(Default)]
    struct Mark {
        queue: Queue,
        marks_seen: usize,
    }

    impl VisitorMut for Mark {
        type Error = ();
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, ()> {
            if let Expression::Identifier(i) = &e.node {
                match i.node.name.as_str() {
                    "x" => self
                        .queue
                        .insert_stmt_before(expr_stmt(call("mark", vec![], e.span))),
                    "mark" => self.marks_seen += 1,
                    "stop" => return Err(()),
                    _ => {}
                }
            }
            Ok(Walk::Descend)
        }
        fn queue(&mut self) -> Option<&mut Queue> {
            Some(&mut self.queue)
        }
    }

    /// The body of `void f(void) { … }`.
    fn body(src: &str) -> Node<Statement> {
        let (_, unit, _) =
            crate::frontend::parse_text(&format!("int x, y, stop; void f(void) {src}"), "t.c")
                .expect("parses");
        let ExternalDeclaration::FunctionDefinition(f) = &unit.0[1].node else {
            panic!("a function")
        };
        f.node.statement.clone()
    }

    fn flat(s: &Statement) -> String {
        statement_to_string(s)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn run(src: &str) -> (Result<(), ()>, String, Mark) {
        let mut s = body(src);
        let mut m = Mark::default();
        let r = visit_mut::stmt(&mut m, &mut s);
        (r, flat(&s.node), m)
    }

    #[test]
    fn queued_items_go_before_the_innermost_block_item() {
        let (r, out, m) = run("{ x; { y; y = x + 1; } if (x) y; }");
        assert_eq!(r, Ok(()));
        assert_eq!(
            out,
            "{ mark(); x; { y; mark(); y = x + 1; } mark(); if (x) y; }"
        );
        assert_eq!(m.marks_seen, 0, "queued items are not walked");
        assert!(m.queue.before.is_empty());
    }

    #[test]
    fn an_enclosing_items_queue_waits_for_its_block() {
        // `x` in the condition queues for the `if`, not for the block of its branch.
        let (r, out, _) = run("{ if (x) { y; x; } y; }");
        assert_eq!(r, Ok(()));
        assert_eq!(out, "{ mark(); if (x) { y; mark(); x; } y; }");
    }

    #[test]
    fn several_insertions_keep_their_order_and_a_declaration_gets_them_too() {
        let (r, out, _) = run("{ int a = x + x; y; }");
        assert_eq!(r, Ok(()));
        assert_eq!(out, "{ mark(); mark(); int a = x + x; y; }");
    }

    #[test]
    fn an_error_stops_the_walk_and_keeps_every_item() {
        let (r, out, _) = run("{ x; { y; stop; x; } x; }");
        assert_eq!(r, Err(()));
        // Walked: the first `x` and the inner block up to `stop`; nothing after it.
        assert_eq!(out, "{ mark(); x; { y; stop; x; } x; }");
    }

    #[test]
    fn items_queued_outside_any_block_are_left_to_the_caller() {
        let mut s = expr_stmt(ident("x", Span::none()));
        let mut m = Mark::default();
        assert_eq!(visit_mut::stmt(&mut m, &mut s), Ok(()));
        let left = m.queue.take();
        assert_eq!(left.len(), 1);
        let BlockItem::Statement(st) = &left[0].node else {
            panic!("a statement")
        };
        assert_eq!(flat(&st.node), "mark();");
    }
}
