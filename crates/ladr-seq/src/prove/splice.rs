//! Functions `main` calls once, spliced into `main` for the proof (issue 31;
//! `docs/decisions/static.md`, "Functions spliced into main"). `main`'s facts
//! ([`super::threads::main_facts`]: what runs alone, team blocks) are read from its
//! top-level statements; a program that does its work in a function `main` calls
//! (`foo(); return 0;`, an OpenMP region in `foo`) hides all of it in one call. A
//! top-level statement `f(a1, …, an);` of `main` is replaced by `T1 p1; p1 = a1; …`
//! (the parameters bound as the inliner binds them, `passes::inline::parameter_locals`)
//! and `f`'s body when that is the same program:
//!  * `f` is defined in the unit, not variadic, its parameters named and as many as the
//!    arguments, and its name occurs nowhere else (no other call, no address taken): it
//!    runs once, here;
//!  * its body has no label, `goto` or `return` (but a last `return;` or `return c;` of a
//!    constant): it runs from its first statement to its last;
//!  * a name its body (with the parameters) declares, at any depth, that `main` (or a
//!    function spliced before) declares or uses, in the arguments too, is renamed
//!    `name@f` in the whole body, a name no C program has (the arguments keep theirs),
//!    when every use of it in the body is in the scope of one of its declarations there;
//!  * no name the body uses outside the scope of its own declarations (a global) is
//!    declared in `main`: every name means what it meant.
//!
//! The statements keep their spans, so what the proof reports still points at `f`'s
//! lines. Only the proof sees the spliced unit.

use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The names a piece of the program uses and declares, and its jumps.
#[derive(Default)]
pub(super) struct Names {
    pub used: HashMap<String, usize>,
    declared: HashSet<String>,
    jumps: usize,
}

impl Visitor for Names {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Identifier(i) = &e.node {
            *self.used.entry(i.node.name.clone()).or_default() += 1;
        }
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        if let DeclaratorKind::Identifier(i) = &d.node.kind.node {
            self.declared.insert(i.node.name.clone());
        }
        Ok(Walk::Descend)
    }
    fn label(&mut self, _l: &Identifier) -> Result<(), Infallible> {
        self.jumps += 1;
        Ok(())
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        if matches!(
            s.node,
            Statement::Labeled(_)
                | Statement::Goto(_)
                | Statement::Return(_)
                | Statement::Switch(_)
        ) {
            self.jumps += 1;
        }
        Ok(Walk::Descend)
    }
}

fn names_of_items(items: &[Node<BlockItem>]) -> Names {
    let mut n = Names::default();
    for i in items {
        let _ = visit::block_item(&mut n, i);
    }
    n
}

/// The function a top-level item `f(a1, …, an);` of `main` calls, with the arguments.
fn plain_call(i: &Node<BlockItem>) -> Option<(&str, &[Node<Expression>])> {
    let c = super::worksharing::plain_call(i)?;
    match &c.callee.node {
        Expression::Identifier(f) => Some((&f.node.name, &c.arguments)),
        _ => None,
    }
}

/// `f`'s body as items to splice: without a last `return;`, or `None` when `f` returns
/// elsewhere or jumps.
fn body_items(f: &FunctionDefinition) -> Option<Vec<Node<BlockItem>>> {
    let Statement::Compound(items) = &f.statement.node else {
        return None;
    };
    let mut items = items.clone();
    // `return;` or `return c;` of a constant: the call's value is not used.
    let last_return = items.last().is_some_and(|i| {
        matches!(&i.node, BlockItem::Statement(s) if matches!(&s.node, Statement::Return(r)
            if r.as_ref().is_none_or(|e| matches!(e.node, Expression::Constant(_)))))
    });
    if last_return {
        items.pop();
    }
    (names_of_items(&items).jumps == 0).then_some(items)
}

/// Renames identifiers and declarators.
struct Rename<'m>(&'m HashMap<String, String>);

impl VisitorMut for Rename<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Identifier(i) = &mut e.node {
            if let Some(n) = self.0.get(&i.node.name) {
                i.node.name = n.clone();
            }
        }
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) -> Result<Walk, Infallible> {
        if let DeclaratorKind::Identifier(i) = &mut d.node.kind.node {
            if let Some(n) = self.0.get(&i.node.name) {
                i.node.name = n.clone();
            }
        }
        Ok(Walk::Descend)
    }
}

/// The names a block's items use where no declaration of theirs is in scope (C's block
/// scopes: a declaration binds from its end to the end of its block, or of its `for`).
fn free_names(items: &[Node<BlockItem>]) -> HashSet<String> {
    struct Free {
        scopes: Vec<HashSet<String>>,
        free: HashSet<String>,
    }
    impl Visitor for Free {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::Identifier(i) = &e.node {
                let n = &i.node.name;
                if !self.scopes.iter().any(|s| s.contains(n)) {
                    self.free.insert(n.clone());
                }
            }
            Ok(Walk::Descend)
        }
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            let scoped = match &s.node {
                Statement::Compound(_) => true,
                Statement::For(f) => {
                    matches!(f.node.initializer.node, ForInitializer::Declaration(_))
                }
                _ => false,
            };
            if !scoped {
                return Ok(Walk::Descend);
            }
            self.scopes.push(HashSet::new());
            let _ = visit::stmt_children(self, &s.node);
            self.scopes.pop();
            Ok(Walk::Skip)
        }
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            let _ = visit::declaration_children(self, d);
            let names =
                d.node.declarators.iter().filter_map(|x| {
                    ladr_c::syntax::build::declarator_name(&x.node.declarator.node)
                });
            let top = self.scopes.last_mut().expect("a scope is open");
            top.extend(names.map(str::to_string));
            Ok(Walk::Skip)
        }
    }
    let mut v = Free {
        scopes: vec![HashSet::new()],
        free: HashSet::new(),
    };
    for i in items {
        let _ = visit::block_item(&mut v, i);
    }
    v.free
}

/// `f`'s body ready to splice where `main` has the names `main_names` (module doc), its
/// parameters `params` bound to the call's `args`: its top-level names renamed where they
/// clash; `None` when a name would change meaning.
fn prepared(
    f: &str,
    params: Vec<(String, Node<Declaration>)>,
    body: Vec<Node<BlockItem>>,
    args: &[Node<Expression>],
    main_names: &Names,
) -> Option<Vec<Node<BlockItem>>> {
    let n = params.len();
    let mut body: Vec<Node<BlockItem>> = params
        .into_iter()
        .map(|(_, d)| ladr_c::syntax::build::decl_item(d))
        .chain(body)
        .collect();
    // A name the body declares (at any depth) and also uses where no declaration of
    // it is in scope would change meaning if renamed; a free name must mean in `main`
    // what it meant in `f`.
    let free = free_names(&body);
    let declared = names_of_items(&body).declared;
    let renames: HashMap<String, String> = declared
        .iter()
        .filter(|n| main_names.declared.contains(*n) || main_names.used.contains_key(*n))
        .map(|n| (n.clone(), format!("{n}@{f}")))
        .collect();
    if renames.keys().any(|n| free.contains(n))
        || free.iter().any(|n| main_names.declared.contains(n))
    {
        return None;
    }
    if !renames.is_empty() {
        let mut r = Rename(&renames);
        for item in &mut body {
            let _ = visit_mut::block_item(&mut r, item);
        }
    }
    // `T p; p = a;` for each parameter, in order: a later parameter's type may use an
    // earlier one (`double A[n][m]`). The arguments keep `main`'s names.
    let rest = body.split_off(n);
    let mut out = vec![];
    for (decl, a) in body.into_iter().zip(args) {
        let BlockItem::Declaration(d) = &decl.node else {
            return None;
        };
        let name = d.node.declarators.first().and_then(|x| {
            ladr_c::syntax::build::declarator_name(&x.node.declarator.node).map(str::to_string)
        })?;
        use ladr_c::syntax::build::{assign, expr_stmt, ident, item};
        out.push(decl);
        out.push(item(expr_stmt(assign(
            ident(&name, a.span),
            a.clone(),
            a.span,
        ))));
    }
    out.extend(rest);
    Some(out)
}

/// The unit with every such call of `main` spliced (module doc), or `None` when there is
/// none.
pub fn splice_main(unit: &TranslationUnit) -> Option<TranslationUnit> {
    let mut whole = Names::default();
    let _ = visit::unit(&mut whole, unit);
    let mut defs: HashMap<&str, (usize, &FunctionDefinition)> = HashMap::new();
    let mut main_at = None;
    for (k, e) in unit.0.iter().enumerate() {
        if let ExternalDeclaration::FunctionDefinition(f) = &e.node {
            let Some(name) = ladr_c::syntax::build::declarator_name(&f.node.declarator.node) else {
                continue;
            };
            if name == "main" {
                main_at = Some(k);
            } else if !defs.contains_key(name) {
                defs.insert(name, (k, &f.node));
            }
        }
    }
    let main_at = main_at?;
    let ExternalDeclaration::FunctionDefinition(main) = &unit.0[main_at].node else {
        return None;
    };
    let Statement::Compound(main_items) = &main.node.statement.node else {
        return None;
    };
    let mut main_names = names_of_items(main_items);
    let mut items: Vec<Node<BlockItem>> = vec![];
    let mut removed: HashSet<usize> = HashSet::new();
    // The unit's array typedefs (a parameter declared with one is a pointer), once.
    let typedefs = std::cell::OnceCell::new();
    for item in main_items {
        let spliced = plain_call(item)
            .filter(|(f, _)| whole.used.get(*f) == Some(&1))
            .and_then(|(f, args)| {
                let (k, d) = defs.get(f)?;
                let typedefs = typedefs.get_or_init(|| crate::passes::inline::array_typedefs(unit));
                let params = crate::passes::inline::parameter_locals(d, args.len(), typedefs)?;
                Some((*k, prepared(f, params, body_items(d)?, args, &main_names)?))
            });
        match spliced {
            Some((k, body)) => {
                let mine = names_of_items(&body);
                main_names.declared.extend(mine.declared);
                for (n, c) in mine.used {
                    *main_names.used.entry(n).or_default() += c;
                }
                removed.insert(k);
                items.extend(body);
            }
            None => items.push(item.clone()),
        }
    }
    if removed.is_empty() {
        return None;
    }
    let mut out = TranslationUnit(vec![]);
    for (k, e) in unit.0.iter().enumerate() {
        if removed.contains(&k) {
            continue;
        }
        if k == main_at {
            let mut m = main.clone();
            m.node.statement.node = Statement::Compound(std::mem::take(&mut items));
            out.0.push(Node::new(
                ExternalDeclaration::FunctionDefinition(m),
                e.span,
            ));
        } else {
            out.0.push(e.clone());
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spliced(src: &str) -> Option<String> {
        let unit = ladr_c::frontend::parse_text(src, "t.c").unwrap().1;
        splice_main(&unit).map(|u| ladr_c::print::print_unit(&u).text)
    }

    #[test]
    fn a_function_called_once_is_spliced_with_clashing_names_renamed() {
        let out = spliced(
            "int g;\nvoid f(void) { int i; int t; i = g; t = i; }\nint h(void) { int i; i = 2; return 0; }\n\
             int main(void) { int t; f(); h(); t = 1; return t; }\n",
        )
        .unwrap();
        let main = &out[out.find("int main").unwrap()..];
        assert_eq!(
            main.split_whitespace().collect::<Vec<_>>().join(" "),
            "int main(void) { int t; int i; int t@f; i = g; t@f = i; int i@h; i@h = 2; t = 1; return t; }"
        );
        assert!(!out.contains("void f(void)") && !out.contains("int h(void)"));
    }

    #[test]
    fn parameters_are_bound_to_the_arguments_in_order() {
        // `a` is `main`'s too (renamed, the argument keeps it); the array parameter is a
        // pointer; `m`'s type names `n`, bound before it
        let out = spliced(
            "int A[4];\nvoid f(int *a, int n, int c[], double (*m)[n]) { a[0] = n; }\n\
             int main(void) { int a = 2; f(A, a, A, 0); return a; }\n",
        )
        .unwrap();
        let main = &out[out.find("int main").unwrap()..];
        assert_eq!(
            main.split_whitespace().collect::<Vec<_>>().join(" "),
            "int main(void) { int a = 2; int *a@f; a@f = A; int n; n = a; int *c; c = A; \
             double (*m)[n]; m = 0; a@f[0] = n; return a; }"
        );
    }

    #[test]
    fn names_of_inner_blocks_are_renamed_where_they_clash() {
        // `g` and `h` each declare `c` in an inner block; after `g` is spliced `main`
        // has a `c`, so `h`'s is renamed, in its block and its `for`
        let out = spliced(
            "int A[4];\nvoid g(void) { { int c; c = 1; A[c] = 0; } }\n\
             void h(void) { { int c; for (c = 0; c < 4; c++) A[c] = c; } for (int c = 0; c < 2; c++) A[c] = 1; }\n\
             int main(void) { g(); h(); return 0; }\n",
        )
        .unwrap();
        let main = &out[out.find("int main").unwrap()..];
        assert_eq!(
            main.split_whitespace().collect::<Vec<_>>().join(" "),
            "int main(void) { { int c; c = 1; A[c] = 0; } { int c@h; for (c@h = 0; c@h < 4; c@h++) A[c@h] = c@h; } \
             for (int c@h = 0; c@h < 2; c@h++) A[c@h] = 1; return 0; }"
        );
    }

    #[test]
    fn calls_that_would_change_meaning_are_left_alone() {
        // called twice; variadic; an unnamed parameter; returning early; `main`'s local
        // `g` over the function's global; a use of a top-level name before its
        // declaration (the global)
        for src in [
            "void f(void) { }\nint main(void) { f(); f(); return 0; }\n",
            "void f(int x, ...) { }\nint main(void) { f(1, 2); return 0; }\n",
            "void f(int) { }\nint main(void) { f(1); return 0; }\n",
            "int g;\nvoid f(void) { if (g) return; g = 1; }\nint main(void) { f(); return 0; }\n",
            "int g;\nvoid f(void) { g = 1; }\nint main(void) { int g; f(); return 0; }\n",
            "int g;\nvoid f(void) { g = 1; int g; g = 2; }\nint main(void) { g = 0; f(); return 0; }\n",
            // an inner block's `c` clashes with `main`'s, and `f` also uses the global `c`
            "int c;\nvoid f(void) { { int c; c = 1; } c = 2; }\nint main(void) { int c; c = 0; f(); return c; }\n",
            // the global `c` a function uses, also declared in an inner block of `main`
            // (refused conservatively: `main`'s names are not read by scope)
            "int c;\nvoid f(void) { c = 2; }\nint main(void) { { int c; c = 0; } f(); return 0; }\n",
        ] {
            assert_eq!(spliced(src), None, "{src}");
        }
    }
}
