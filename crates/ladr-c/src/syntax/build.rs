//! Small builder functions for lang-c AST nodes: generated code is built as AST, never as text.
//!
//! Every builder takes the span of the node the generated code stands for (use
//! `Span::none()` only for code with no source counterpart), so the printer's line map can
//! point generated lines back at the user's source.

use lang_c::ast::*;
use lang_c::span::{Node, Span};

pub fn node<T>(t: T, span: Span) -> Node<T> {
    Node::new(t, span)
}

pub fn ident(name: &str, span: Span) -> Node<Expression> {
    node(
        Expression::Identifier(Box::new(node(
            Identifier {
                name: name.to_string(),
            },
            span,
        ))),
        span,
    )
}

pub fn id(name: &str, span: Span) -> Node<Identifier> {
    node(
        Identifier {
            name: name.to_string(),
        },
        span,
    )
}

/// A non-negative decimal integer constant.
pub fn int(n: u64, span: Span) -> Node<Expression> {
    node(
        Expression::Constant(Box::new(node(
            Constant::Integer(Integer {
                base: IntegerBase::Decimal,
                number: n.to_string().into_boxed_str(),
                suffix: IntegerSuffix {
                    size: IntegerSize::Int,
                    unsigned: false,
                    imaginary: false,
                },
            }),
            span,
        ))),
        span,
    )
}

pub fn string(s: &str, span: Span) -> Node<Expression> {
    let quoted = format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    node(
        Expression::StringLiteral(Box::new(node(vec![quoted], span))),
        span,
    )
}

pub fn call(name: &str, args: Vec<Node<Expression>>, span: Span) -> Node<Expression> {
    call_expr(ident(name, span), args, span)
}

pub fn call_expr(
    callee: Node<Expression>,
    args: Vec<Node<Expression>>,
    span: Span,
) -> Node<Expression> {
    node(
        Expression::Call(Box::new(node(
            CallExpression {
                callee: Box::new(callee),
                arguments: args,
            },
            span,
        ))),
        span,
    )
}

pub fn binop(
    op: BinaryOperator,
    lhs: Node<Expression>,
    rhs: Node<Expression>,
    span: Span,
) -> Node<Expression> {
    node(
        Expression::BinaryOperator(Box::new(node(
            BinaryOperatorExpression {
                operator: node(op, span),
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        ))),
        span,
    )
}

pub fn assign(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Assign, lhs, rhs, span)
}

pub fn and(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::LogicalAnd, lhs, rhs, span)
}

pub fn or(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::LogicalOr, lhs, rhs, span)
}

pub fn eq(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Equals, lhs, rhs, span)
}

pub fn index(base: Node<Expression>, idx: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Index, base, idx, span)
}

pub fn unop(op: UnaryOperator, e: Node<Expression>, span: Span) -> Node<Expression> {
    node(
        Expression::UnaryOperator(Box::new(node(
            UnaryOperatorExpression {
                operator: node(op, span),
                operand: Box::new(e),
            },
            span,
        ))),
        span,
    )
}

pub fn not(e: Node<Expression>, span: Span) -> Node<Expression> {
    unop(UnaryOperator::Negate, e, span)
}

pub fn addr(e: Node<Expression>, span: Span) -> Node<Expression> {
    unop(UnaryOperator::Address, e, span)
}

pub fn deref(e: Node<Expression>, span: Span) -> Node<Expression> {
    unop(UnaryOperator::Indirection, e, span)
}

/// `sizeof(e)` (of an expression; `e` is not evaluated).
pub fn size_of_val(e: Node<Expression>, span: Span) -> Node<Expression> {
    node(
        Expression::SizeOfVal(Box::new(node(SizeOfVal(Box::new(e)), span))),
        span,
    )
}

pub fn member(e: Node<Expression>, field: &str, arrow: bool, span: Span) -> Node<Expression> {
    let op = if arrow {
        MemberOperator::Indirect
    } else {
        MemberOperator::Direct
    };
    node(
        Expression::Member(Box::new(node(
            MemberExpression {
                operator: node(op, span),
                expression: Box::new(e),
                identifier: id(field, span),
            },
            span,
        ))),
        span,
    )
}

pub fn comma(mut es: Vec<Node<Expression>>, span: Span) -> Node<Expression> {
    if es.len() == 1 {
        return es.pop().unwrap();
    }
    node(Expression::Comma(Box::new(es)), span)
}

pub fn cond(
    c: Node<Expression>,
    t: Node<Expression>,
    e: Node<Expression>,
    span: Span,
) -> Node<Expression> {
    node(
        Expression::Conditional(Box::new(node(
            ConditionalExpression {
                condition: Box::new(c),
                then_expression: Box::new(t),
                else_expression: Box::new(e),
            },
            span,
        ))),
        span,
    )
}

pub fn cast(ty: Node<TypeName>, e: Node<Expression>, span: Span) -> Node<Expression> {
    node(
        Expression::Cast(Box::new(node(
            CastExpression {
                type_name: ty,
                expression: Box::new(e),
            },
            span,
        ))),
        span,
    )
}

/// `_Generic(e, T1: e1, …, default: d)`: each association a type name and its expression.
pub fn generic(
    e: Node<Expression>,
    types: Vec<(Node<TypeName>, Node<Expression>)>,
    default: Node<Expression>,
    span: Span,
) -> Node<Expression> {
    let mut associations: Vec<Node<GenericAssociation>> = types
        .into_iter()
        .map(|(type_name, expression)| {
            let t = GenericAssociationType {
                type_name,
                expression: Box::new(expression),
            };
            node(GenericAssociation::Type(node(t, span)), span)
        })
        .collect();
    associations.push(node(GenericAssociation::Default(Box::new(default)), span));
    node(
        Expression::GenericSelection(Box::new(node(
            GenericSelection {
                expression: Box::new(e),
                associations,
            },
            span,
        ))),
        span,
    )
}

/// A type name made of basic specifiers, e.g. `&[TypeSpecifier::Unsigned, TypeSpecifier::Int]`,
/// with `pointers` levels of `*`.
pub fn type_name(specs: &[TypeSpecifier], pointers: usize, span: Span) -> Node<TypeName> {
    let declarator = (pointers > 0).then(|| {
        node(
            Declarator {
                kind: node(DeclaratorKind::Abstract, span),
                derived: (0..pointers)
                    .map(|_| node(DerivedDeclarator::Pointer(vec![]), span))
                    .collect(),
                extensions: vec![],
            },
            span,
        )
    });
    node(
        TypeName {
            specifiers: specs
                .iter()
                .map(|s| {
                    node(
                        SpecifierQualifier::TypeSpecifier(node(s.clone(), span)),
                        span,
                    )
                })
                .collect(),
            declarator,
        },
        span,
    )
}

/// `__typeof__(e)` as a type specifier.
pub fn typeof_expr(e: Node<Expression>, span: Span) -> TypeSpecifier {
    TypeSpecifier::TypeOf(node(TypeOf::Expression(e), span))
}

// ---- statements ----

pub fn expr_stmt(e: Node<Expression>) -> Node<Statement> {
    let span = e.span;
    node(Statement::Expression(Some(Box::new(e))), span)
}

pub fn empty_stmt(span: Span) -> Node<Statement> {
    node(Statement::Expression(None), span)
}

pub fn goto(label: &str, span: Span) -> Node<Statement> {
    node(Statement::Goto(id(label, span)), span)
}

pub fn labeled(label: &str, s: Node<Statement>, span: Span) -> Node<Statement> {
    node(
        Statement::Labeled(node(
            LabeledStatement {
                label: node(Label::Identifier(id(label, span)), span),
                statement: Box::new(s),
            },
            span,
        )),
        span,
    )
}

pub fn if_stmt(
    c: Node<Expression>,
    then: Node<Statement>,
    els: Option<Node<Statement>>,
    span: Span,
) -> Node<Statement> {
    node(
        Statement::If(node(
            IfStatement {
                condition: Box::new(c),
                then_statement: Box::new(then),
                else_statement: els.map(Box::new),
            },
            span,
        )),
        span,
    )
}

pub fn block(items: Vec<Node<BlockItem>>, span: Span) -> Node<Statement> {
    node(Statement::Compound(items), span)
}

pub fn block_of(stmts: Vec<Node<Statement>>, span: Span) -> Node<Statement> {
    block(stmts.into_iter().map(item).collect(), span)
}

pub fn item(s: Node<Statement>) -> Node<BlockItem> {
    let span = s.span;
    node(BlockItem::Statement(s), span)
}

pub fn decl_item(d: Node<Declaration>) -> Node<BlockItem> {
    let span = d.span;
    node(BlockItem::Declaration(d), span)
}

pub fn ret(e: Option<Node<Expression>>, span: Span) -> Node<Statement> {
    node(Statement::Return(e.map(Box::new)), span)
}

/// `__CPROVER_assume(e);`
pub fn assume(e: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(call("__CPROVER_assume", vec![e], span))
}

// ---- declarations ----

/// A declaration `specs name derived... [= init];`.
pub fn declaration(
    specifiers: Vec<Node<DeclarationSpecifier>>,
    name: &str,
    derived: Vec<Node<DerivedDeclarator>>,
    init: Option<Node<Initializer>>,
    span: Span,
) -> Node<Declaration> {
    let declarator = Declarator {
        kind: node(DeclaratorKind::Identifier(id(name, span)), span),
        derived,
        extensions: vec![],
    };
    declare(specifiers, node(declarator, span), init, span)
}

/// A declaration of one declarator: `specifiers declarator [= init];`.
pub fn declare(
    specifiers: Vec<Node<DeclarationSpecifier>>,
    declarator: Node<Declarator>,
    initializer: Option<Node<Initializer>>,
    span: Span,
) -> Node<Declaration> {
    node(
        Declaration {
            specifiers,
            declarators: vec![node(
                InitDeclarator {
                    declarator,
                    initializer,
                },
                span,
            )],
        },
        span,
    )
}

pub fn spec(s: TypeSpecifier, span: Span) -> Node<DeclarationSpecifier> {
    node(DeclarationSpecifier::TypeSpecifier(node(s, span)), span)
}

pub fn storage(s: StorageClassSpecifier, span: Span) -> Node<DeclarationSpecifier> {
    node(DeclarationSpecifier::StorageClass(node(s, span)), span)
}

/// `[static] __typeof__(e) name;`
pub fn typeof_decl(
    name: &str,
    e: Node<Expression>,
    is_static: bool,
    span: Span,
) -> Node<Declaration> {
    let mut specs = vec![];
    if is_static {
        specs.push(storage(StorageClassSpecifier::Static, span));
    }
    specs.push(spec(typeof_expr(e, span), span));
    declaration(specs, name, vec![], None, span)
}

/// `[static] T name[n];` with basic specifiers.
pub fn simple_decl(
    specs: &[TypeSpecifier],
    name: &str,
    array: Option<u64>,
    is_static: bool,
    init: Option<Node<Expression>>,
    span: Span,
) -> Node<Declaration> {
    let mut s = vec![];
    if is_static {
        s.push(storage(StorageClassSpecifier::Static, span));
    }
    s.extend(specs.iter().map(|t| spec(t.clone(), span)));
    let derived = array
        .map(|n| {
            vec![node(
                DerivedDeclarator::Array(node(
                    ArrayDeclarator {
                        qualifiers: vec![],
                        size: ArraySize::VariableExpression(Box::new(int(n, span))),
                    },
                    span,
                )),
                span,
            )]
        })
        .unwrap_or_default();
    declaration(
        s,
        name,
        derived,
        init.map(|e| node(Initializer::Expression(Box::new(e)), span)),
        span,
    )
}

/// The name a call expression calls directly, if its callee is a plain identifier.
pub fn callee_name(c: &CallExpression) -> Option<&str> {
    match &c.callee.node {
        Expression::Identifier(i) => Some(i.node.name.as_str()),
        _ => None,
    }
}

/// The name a declarator declares, looking through nested declarators.
pub fn declarator_name(d: &Declarator) -> Option<&str> {
    match &d.kind.node {
        DeclaratorKind::Identifier(i) => Some(i.node.name.as_str()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// The members a struct or union definition declares: each member's name (none for an
/// unnamed bit-field) and bit width, in order (members of anonymous structs not included).
pub fn struct_members(
    st: &StructType,
) -> impl Iterator<Item = (Option<&str>, Option<&Node<Expression>>)> {
    st.declarations
        .iter()
        .flatten()
        .filter_map(|f| match &f.node {
            StructDeclaration::Field(f) => Some(f),
            _ => None,
        })
        .flat_map(|f| &f.node.declarators)
        .map(|sd| {
            let name = sd
                .node
                .declarator
                .as_ref()
                .and_then(|d| declarator_name(&d.node));
            (name, sd.node.bit_width.as_deref())
        })
}

/// Mutable access to the identifier a declarator declares.
pub fn declarator_name_mut(d: &mut Declarator) -> Option<&mut Identifier> {
    match &mut d.kind.node {
        DeclaratorKind::Identifier(i) => Some(&mut i.node),
        DeclaratorKind::Declarator(inner) => declarator_name_mut(&mut inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// The name of a function definition.
pub fn function_name(f: &FunctionDefinition) -> Option<&str> {
    declarator_name(&f.declarator.node)
}

/// The function declarator `(void)`: no parameters.
pub fn no_parameters() -> Node<DerivedDeclarator> {
    let span = Span::none();
    node(
        DerivedDeclarator::Function(node(
            FunctionDeclarator {
                parameters: vec![node(
                    ParameterDeclaration {
                        specifiers: vec![spec(TypeSpecifier::Void, span)],
                        declarator: None,
                        extensions: vec![],
                    },
                    span,
                )],
                ellipsis: Ellipsis::None,
            },
            span,
        )),
        span,
    )
}

/// `T name(void) { body }`
pub fn function_def(
    name: &str,
    ret: TypeSpecifier,
    body: Node<Statement>,
) -> Node<ExternalDeclaration> {
    let span = Span::none();
    let declarator = node(
        Declarator {
            kind: node(DeclaratorKind::Identifier(id(name, span)), span),
            derived: vec![no_parameters()],
            extensions: vec![],
        },
        span,
    );
    node(
        ExternalDeclaration::FunctionDefinition(node(
            FunctionDefinition {
                specifiers: vec![spec(ret, span)],
                declarator,
                declarations: vec![],
                statement: body,
            },
            span,
        )),
        span,
    )
}

/// The name of a plain identifier expression (`x`), `None` for anything else.
pub fn ident_name(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(i) => Some(&i.node.name),
        _ => None,
    }
}

/// Storage classes among declaration specifiers.
pub fn storage_of(specs: &[Node<DeclarationSpecifier>]) -> Vec<StorageClassSpecifier> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::StorageClass(c) => Some(c.node.clone()),
            _ => None,
        })
        .collect()
}

/// The innermost declarator (the one holding the identifier).
pub fn innermost_mut(d: &mut Declarator) -> &mut Declarator {
    match d.kind.node {
        DeclaratorKind::Declarator(ref mut inner) => innermost_mut(&mut inner.node),
        _ => d,
    }
}

pub fn innermost(d: &Declarator) -> &Declarator {
    match &d.kind.node {
        DeclaratorKind::Declarator(inner) => innermost(&inner.node),
        _ => d,
    }
}

/// The first derived part after the pointers of the innermost declarator: what the declared
/// name is, at the outermost type level.
pub fn first_suffix(d: &Declarator) -> Option<&DerivedDeclarator> {
    innermost(d)
        .derived
        .iter()
        .map(|x| &x.node)
        .find(|x| !matches!(x, DerivedDeclarator::Pointer(_)))
}

/// `struct` or `union`: the keyword of a struct type's kind.
pub fn struct_keyword(kind: &StructKind) -> &'static str {
    match kind {
        StructKind::Struct => "struct",
        StructKind::Union => "union",
    }
}

/// `char`, `short`, `int`, `long`, `signed`, `unsigned`: a keyword of an integer type (not
/// `_Bool`, an `enum` or a typedef name).
pub fn is_integer_keyword(t: &TypeSpecifier) -> bool {
    matches!(
        t,
        TypeSpecifier::Char
            | TypeSpecifier::Short
            | TypeSpecifier::Int
            | TypeSpecifier::Long
            | TypeSpecifier::Signed
            | TypeSpecifier::Unsigned
    )
}

/// An integer keyword ([`is_integer_keyword`]), `float`, `double` or `_Bool`: a keyword of
/// an arithmetic type.
pub fn is_arithmetic_keyword(t: &TypeSpecifier) -> bool {
    is_integer_keyword(t)
        || matches!(
            t,
            TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::Bool
        )
}

/// `name(…)`: declares a function, not a pointer to one (`int (*f)(int)`), also one that
/// returns a pointer to a function (`void (*signal(int, void (*)(int)))(int)`). The one
/// test of the crates (the IR's analysis, the passes and the proof use it).
pub fn is_function_declarator(d: &Declarator) -> bool {
    matches!(
        first_suffix(d),
        Some(DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_))
    )
}

/// A `typedef` declaration.
pub fn is_typedef(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
    })
}

/// A declaration with storage class `k` (`static`, `extern`, `_Thread_local`, …).
pub fn has_storage(d: &Declaration, k: StorageClassSpecifier) -> bool {
    d.specifiers
        .iter()
        .any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == k))
}

/// The names of a function declarator's parameters (prototype or K&R identifier list):
/// those of the innermost declarator's first parameter list (`int (*f(int x))(int y)`: `x`).
pub fn parameter_names(d: &Declarator) -> Vec<String> {
    let mut out = vec![];
    for x in &innermost(d).derived {
        match &x.node {
            DerivedDeclarator::Function(f) => {
                for p in &f.node.parameters {
                    if let Some(n) = p
                        .node
                        .declarator
                        .as_ref()
                        .and_then(|d| declarator_name(&d.node))
                    {
                        out.push(n.to_string());
                    }
                }
                break;
            }
            DerivedDeclarator::KRFunction(ids) => {
                out.extend(ids.iter().map(|i| i.node.name.clone()));
                break;
            }
            _ => {}
        }
    }
    out
}

/// `*x`, `**x`, `(*f)(void)`: a declarator that declares a pointer (to an object or a
/// function), not an array of pointers or a function returning one.
pub fn is_pointer_declarator(d: &Declarator) -> bool {
    match &d.kind.node {
        // `(*f)(int)`: the inner declarator makes `f` a pointer, whatever follows.
        DeclaratorKind::Declarator(inner) => is_pointer_declarator(&inner.node),
        DeclaratorKind::Identifier(_) => {
            // lang-c lists a declarator's pointers before its array and function parts.
            !d.derived.is_empty()
                && d.derived
                    .iter()
                    .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        }
        DeclaratorKind::Abstract => false,
    }
}

/// The type specifiers among a member's or type name's specifiers and qualifiers.
pub fn field_type_specifiers(specs: &[Node<SpecifierQualifier>]) -> Vec<&TypeSpecifier> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

/// The type specifiers among declaration specifiers.
pub fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> Vec<&TypeSpecifier> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

/// True if the declaration specifiers include `volatile`.
pub fn is_volatile(specs: &[Node<DeclarationSpecifier>]) -> bool {
    specs.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeQualifier(q)
            if q.node == TypeQualifier::Volatile)
    })
}

/// How many array dimensions the declarator has at its top (`int *q[2][3]`: 2; lang-c
/// lists a declarator's pointers before its suffixes, and the suffixes apply last).
pub fn array_dims(d: &Declarator) -> usize {
    d.derived
        .iter()
        .skip_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        .take_while(|x| matches!(x.node, DerivedDeclarator::Array(_)))
        .count()
}

/// `x[…]…`: a declarator whose outermost derivation is an array.
pub fn is_array_declarator(d: &Declarator) -> bool {
    // lang-c lists a declarator's pointers before its array part: `int *q[2]` is an array
    // of pointers.
    matches!(d.kind.node, DeclaratorKind::Identifier(_))
        && matches!(
            d.derived
                .iter()
                .find(|x| !matches!(x.node, DerivedDeclarator::Pointer(_)))
                .map(|x| &x.node),
            Some(DerivedDeclarator::Array(_))
        )
}

/// `(__typeof__(var))(value)`: the constant `value` that `var` holds where it is read (what
/// the `constprop` pass puts in place of the read, with the read's span). The reports show
/// it as `var` ([`folded_var`]).
pub fn folded(var: &str, value: Node<Expression>, span: Span) -> Node<Expression> {
    let ty = node(
        TypeName {
            specifiers: vec![node(
                SpecifierQualifier::TypeSpecifier(node(typeof_expr(ident(var, span), span), span)),
                span,
            )],
            declarator: None,
        },
        span,
    );
    cast(ty, value, span)
}

/// The variable of a [`folded`] read.
pub fn folded_var(e: &Expression) -> Option<&str> {
    let Expression::Cast(c) = e else {
        return None;
    };
    let [s] = c.node.type_name.node.specifiers.as_slice() else {
        return None;
    };
    match (&s.node, &c.node.type_name.node.declarator) {
        (SpecifierQualifier::TypeSpecifier(t), None) => match &t.node {
            TypeSpecifier::TypeOf(to) => match &to.node {
                TypeOf::Expression(v) => ident_name(v),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}
