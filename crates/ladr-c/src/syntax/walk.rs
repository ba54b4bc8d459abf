//! A mutable walker over the lang-c AST (lang-c's own `visit` module is read-only).
//!
//! Implement [`VisitMut`], override the hooks you need, and call the matching `walk_*`
//! function from an override to descend into children. The default of every hook descends.

use lang_c::ast::*;
use lang_c::span::Node;

pub trait VisitMut {
    fn expr(&mut self, e: &mut Node<Expression>) {
        walk_expr(self, e)
    }
    fn stmt(&mut self, s: &mut Node<Statement>) {
        walk_stmt(self, s)
    }
    fn declaration(&mut self, d: &mut Node<Declaration>) {
        walk_declaration(self, d)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) {
        walk_declarator(self, d)
    }
    fn type_name(&mut self, t: &mut Node<TypeName>) {
        walk_type_name(self, t)
    }
    /// Labels of labeled statements and goto targets.
    fn label(&mut self, _l: &mut Identifier) {}
}

pub fn walk_expr<V: VisitMut + ?Sized>(v: &mut V, e: &mut Node<Expression>) {
    match &mut e.node {
        Expression::Identifier(_) | Expression::Constant(_) | Expression::StringLiteral(_) => {}
        Expression::GenericSelection(g) => {
            v.expr(&mut g.node.expression);
            for a in &mut g.node.associations {
                match &mut a.node {
                    GenericAssociation::Type(t) => {
                        v.type_name(&mut t.node.type_name);
                        v.expr(&mut t.node.expression);
                    }
                    GenericAssociation::Default(d) => v.expr(d),
                }
            }
        }
        Expression::Member(m) => v.expr(&mut m.node.expression),
        Expression::Call(c) => {
            v.expr(&mut c.node.callee);
            for a in &mut c.node.arguments {
                v.expr(a);
            }
        }
        Expression::CompoundLiteral(c) => {
            v.type_name(&mut c.node.type_name);
            for i in &mut c.node.initializer_list {
                walk_init_item(v, i);
            }
        }
        Expression::SizeOfTy(s) => v.type_name(&mut s.node.0),
        Expression::SizeOfVal(s) => v.expr(&mut s.node.0),
        Expression::AlignOf(a) => v.type_name(&mut a.node.0),
        Expression::UnaryOperator(u) => v.expr(&mut u.node.operand),
        Expression::Cast(c) => {
            v.type_name(&mut c.node.type_name);
            v.expr(&mut c.node.expression);
        }
        Expression::BinaryOperator(b) => {
            v.expr(&mut b.node.lhs);
            v.expr(&mut b.node.rhs);
        }
        Expression::Conditional(c) => {
            v.expr(&mut c.node.condition);
            v.expr(&mut c.node.then_expression);
            v.expr(&mut c.node.else_expression);
        }
        Expression::Comma(es) => {
            for x in es.iter_mut() {
                v.expr(x);
            }
        }
        Expression::OffsetOf(o) => {
            v.type_name(&mut o.node.type_name);
            for m in &mut o.node.designator.node.members {
                if let OffsetMember::Index(i) = &mut m.node {
                    v.expr(i);
                }
            }
        }
        Expression::VaArg(va) => {
            v.expr(&mut va.node.va_list);
            v.type_name(&mut va.node.type_name);
        }
        Expression::Statement(s) => v.stmt(s),
    }
}

pub fn walk_init_item<V: VisitMut + ?Sized>(v: &mut V, i: &mut Node<InitializerListItem>) {
    for d in &mut i.node.designation {
        match &mut d.node {
            Designator::Index(e) => v.expr(e),
            Designator::Member(_) => {}
            Designator::Range(r) => {
                v.expr(&mut r.node.from);
                v.expr(&mut r.node.to);
            }
        }
    }
    walk_initializer(v, &mut i.node.initializer);
}

pub fn walk_initializer<V: VisitMut + ?Sized>(v: &mut V, i: &mut Node<Initializer>) {
    match &mut i.node {
        Initializer::Expression(e) => v.expr(e),
        Initializer::List(items) => {
            for it in items {
                walk_init_item(v, it);
            }
        }
    }
}

pub fn walk_stmt<V: VisitMut + ?Sized>(v: &mut V, s: &mut Node<Statement>) {
    match &mut s.node {
        Statement::Labeled(l) => {
            match &mut l.node.label.node {
                Label::Identifier(i) => v.label(&mut i.node),
                Label::Case(e) => v.expr(e),
                Label::CaseRange(r) => {
                    v.expr(&mut r.node.low);
                    v.expr(&mut r.node.high);
                }
                Label::Default => {}
            }
            v.stmt(&mut l.node.statement);
        }
        Statement::Compound(items) => {
            for it in items {
                walk_block_item(v, it);
            }
        }
        Statement::Expression(e) => {
            if let Some(e) = e {
                v.expr(e);
            }
        }
        Statement::If(i) => {
            v.expr(&mut i.node.condition);
            v.stmt(&mut i.node.then_statement);
            if let Some(e) = &mut i.node.else_statement {
                v.stmt(e);
            }
        }
        Statement::Switch(sw) => {
            v.expr(&mut sw.node.expression);
            v.stmt(&mut sw.node.statement);
        }
        Statement::While(w) => {
            v.expr(&mut w.node.expression);
            v.stmt(&mut w.node.statement);
        }
        Statement::DoWhile(d) => {
            v.stmt(&mut d.node.statement);
            v.expr(&mut d.node.expression);
        }
        Statement::For(f) => {
            match &mut f.node.initializer.node {
                ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                ForInitializer::Expression(e) => v.expr(e),
                ForInitializer::Declaration(d) => v.declaration(d),
            }
            if let Some(c) = &mut f.node.condition {
                v.expr(c);
            }
            if let Some(c) = &mut f.node.step {
                v.expr(c);
            }
            v.stmt(&mut f.node.statement);
        }
        Statement::Goto(l) => v.label(&mut l.node),
        Statement::Continue | Statement::Break => {}
        Statement::Return(e) => {
            if let Some(e) = e {
                v.expr(e);
            }
        }
        Statement::Asm(a) => {
            if let AsmStatement::GnuExtended(g) = &mut a.node {
                for o in g.outputs.iter_mut().chain(g.inputs.iter_mut()) {
                    v.expr(&mut o.node.variable_name);
                }
            }
        }
    }
}

pub fn walk_block_item<V: VisitMut + ?Sized>(v: &mut V, it: &mut Node<BlockItem>) {
    match &mut it.node {
        BlockItem::Declaration(d) => v.declaration(d),
        BlockItem::StaticAssert(_) => {}
        BlockItem::Statement(s) => v.stmt(s),
    }
}

pub fn walk_declaration<V: VisitMut + ?Sized>(v: &mut V, d: &mut Node<Declaration>) {
    for s in &mut d.node.specifiers {
        walk_decl_specifier(v, s);
    }
    for id in &mut d.node.declarators {
        v.declarator(&mut id.node.declarator);
        if let Some(i) = &mut id.node.initializer {
            walk_initializer(v, i);
        }
    }
}

fn walk_decl_specifier<V: VisitMut + ?Sized>(v: &mut V, s: &mut Node<DeclarationSpecifier>) {
    if let DeclarationSpecifier::TypeSpecifier(t) = &mut s.node {
        walk_type_specifier(v, t);
    }
}

pub fn walk_type_specifier<V: VisitMut + ?Sized>(v: &mut V, t: &mut Node<TypeSpecifier>) {
    match &mut t.node {
        TypeSpecifier::TypeOf(to) => match &mut to.node {
            TypeOf::Expression(e) => v.expr(e),
            TypeOf::Type(tn) => v.type_name(tn),
        },
        TypeSpecifier::Atomic(tn) => v.type_name(tn),
        TypeSpecifier::Struct(st) => {
            if let Some(decls) = &mut st.node.declarations {
                for d in decls {
                    if let StructDeclaration::Field(f) = &mut d.node {
                        for s in &mut f.node.specifiers {
                            if let SpecifierQualifier::TypeSpecifier(t) = &mut s.node {
                                walk_type_specifier(v, t);
                            }
                        }
                        for sd in &mut f.node.declarators {
                            if let Some(d) = &mut sd.node.declarator {
                                v.declarator(d);
                            }
                        }
                    }
                }
            }
        }
        TypeSpecifier::Enum(en) => {
            for e in &mut en.node.enumerators {
                if let Some(x) = &mut e.node.expression {
                    v.expr(x);
                }
            }
        }
        _ => {}
    }
}

pub fn walk_declarator<V: VisitMut + ?Sized>(v: &mut V, d: &mut Node<Declarator>) {
    if let DeclaratorKind::Declarator(inner) = &mut d.node.kind.node {
        v.declarator(inner);
    }
    for dd in &mut d.node.derived {
        match &mut dd.node {
            DerivedDeclarator::Array(a) => match &mut a.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => v.expr(e),
                _ => {}
            },
            DerivedDeclarator::Function(f) => {
                for p in &mut f.node.parameters {
                    for s in &mut p.node.specifiers {
                        walk_decl_specifier(v, s);
                    }
                    if let Some(d) = &mut p.node.declarator {
                        v.declarator(d);
                    }
                }
            }
            _ => {}
        }
    }
}

pub fn walk_type_name<V: VisitMut + ?Sized>(v: &mut V, t: &mut Node<TypeName>) {
    for s in &mut t.node.specifiers {
        if let SpecifierQualifier::TypeSpecifier(ts) = &mut s.node {
            walk_type_specifier(v, ts);
        }
    }
    if let Some(d) = &mut t.node.declarator {
        v.declarator(d);
    }
}

/// Walks every function body and global declaration of a unit.
pub fn walk_unit<V: VisitMut + ?Sized>(v: &mut V, unit: &mut TranslationUnit) {
    for ext in &mut unit.0 {
        match &mut ext.node {
            ExternalDeclaration::Declaration(d) => v.declaration(d),
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => {
                v.declarator(&mut f.node.declarator);
                for d in &mut f.node.declarations {
                    v.declaration(d);
                }
                v.stmt(&mut f.node.statement);
            }
        }
    }
}

/// True if `e` (or any subexpression outside `sizeof`) has a side effect: assignment,
/// increment/decrement, call, or statement expression.
pub fn has_side_effect(e: &Expression) -> bool {
    struct Finder(bool);
    impl VisitMut for Finder {
        fn expr(&mut self, e: &mut Node<Expression>) {
            match &e.node {
                Expression::Call(_) | Expression::Statement(_) => self.0 = true,
                Expression::SizeOfVal(_) | Expression::SizeOfTy(_) | Expression::AlignOf(_) => {}
                Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                    self.0 = true
                }
                Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => self.0 = true,
                _ => walk_expr(self, e),
            }
        }
        fn type_name(&mut self, _t: &mut Node<TypeName>) {}
    }
    let mut f = Finder(false);
    // The finder does not modify; it needs `&mut` only because the walker is mutable.
    let mut copy = Node::new(e.clone(), lang_c::span::Span::none());
    f.expr(&mut copy);
    f.0
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

/// True if the statement names one of `names` as an identifier expression.
pub fn mentions(s: &Node<Statement>, names: &[&str]) -> bool {
    struct Finder<'a>(&'a [&'a str], bool);
    impl VisitMut for Finder<'_> {
        fn expr(&mut self, e: &mut Node<Expression>) {
            if let Expression::Identifier(i) = &e.node {
                if self.0.contains(&i.node.name.as_str()) {
                    self.1 = true;
                }
            }
            walk_expr(self, e)
        }
    }
    let mut f = Finder(names, false);
    // Like `has_side_effect`: the walker is mutable, the finder only reads.
    let mut copy = s.clone();
    f.stmt(&mut copy);
    f.1
}
