//! The linker: several translation units, each preprocessed and parsed with its own
//! options, become one program, as a C linker would make them one executable.
//!
//! * The units' texts are laid end to end: unit k's spans are moved past the texts of the
//!   units before it (`origin::shift_spans`), and one [`SourceMap`] covers them all (each
//!   text starts with a line marker naming its file), so every location names its file.
//! * External definitions are resolved by name: the units become one list of external
//!   declarations, in which an `extern` declaration or a prototype and the definition of
//!   the same name meet as they do in one C file.
//! * What each unit's headers declare again (types, prototypes, `static inline` helpers) is
//!   kept once: a file-scope declaration printed exactly as one of an earlier unit is
//!   dropped. A tag or typedef that two units define differently is an error.
//! * Internal linkage stays internal: a `static` object of a unit whose name another unit
//!   also declares is renamed in its unit (`name__ladr_u<k>` in the k-th file, reported as `name`), with every
//!   use that sees it (locals of the same name hide it). So is a `static` function, unless
//!   every unit that declares the name defines it as the same `static` function (a helper
//!   from a shared header).
//! * Exactly one unit defines `main`; none or two is an error naming the files.
//!
//! ```text
//! a.c: static int n; int f(void) { return n; } int main(void) { … }
//! b.c: static int n; extern int f(void); void g(void) { n++; }
//!   ──▶ static int n__ladr_u1; int f(void) { return n__ladr_u1; } int main(void) { … }
//!       static int n__ladr_u2; extern int f(void); void g(void) { n__ladr_u2++; }
//! ```

use super::link_types::Canon;
use super::{parse_part, read_preprocessed, Options, Parsed, Part};
use crate::diag::{Error, ErrorKind, Result};
use crate::origin::shift_spans;
use crate::print::print_unit;
use crate::source_map::{Edit, SourceMap};
use crate::syntax::build::*;
use crate::syntax::copy::{Copier, Rename};
use crate::syntax::names::{linked, Names};
use crate::syntax::walk::visit_mut;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

/// One translation unit to link: a file and its own preprocessor options.
#[derive(Clone, Debug)]
pub struct Input {
    pub path: PathBuf,
    pub opts: Options,
}

/// Reads, preprocesses and parses every input and links them into one program (one input:
/// the same as [`super::load`]). `Parsed::path` is the first input's.
pub fn load_all(inputs: &[Input]) -> Result<Parsed> {
    match inputs {
        [] => Err(Error::new(ErrorKind::Usage, "no C file to check")),
        [one] => super::load(&one.path, &one.opts),
        _ => {
            let mut units = Vec::with_capacity(inputs.len());
            for i in inputs {
                let file = i.path.display().to_string();
                // Each text starts with a marker naming its file, so its lines cannot be
                // taken for lines of the file before it (`.i` files may have none).
                let pre = format!(
                    "# 1 \"{}\"\n{}",
                    file.replace('\\', "\\\\").replace('"', "\\\""),
                    read_preprocessed(&i.path, &i.opts)?
                );
                let mut pre = pre;
                if !pre.ends_with('\n') {
                    pre.push('\n');
                }
                let part = parse_part(&pre, &file, i.opts.omp_team())?;
                units.push((file, pre, part));
            }
            link(inputs[0].path.clone(), units)
        }
    }
}

/// Links parsed units (file name, preprocessed text, parse) into one program.
fn link(path: PathBuf, units: Vec<(String, String, Part)>) -> Result<Parsed> {
    // One text, one map: unit k's offsets move up by the length of the texts before it.
    let mut text = String::new();
    let mut pre_all = String::new();
    let mut edits: Vec<Edit> = vec![];
    let mut linked: Vec<Unit> = vec![];
    let mut omp_threads = None;
    let mut omp_constructs = vec![];
    // What follows a construct is read in its own unit: a call into another unit may run
    // anything there.
    let several = units.len() > 1;
    for (file, pre, mut part) in units {
        omp_threads = omp_threads.or(part.omp_threads);
        let base = text.len();
        omp_constructs.extend(
            part.omp_constructs
                .into_iter()
                .map(|c| super::openmp::Construct {
                    at: c.at + base,
                    body: (c.body.0 + base, c.body.1 + base),
                    code_after: c.code_after || several,
                    ..c
                }),
        );
        shift_spans(&mut part.unit, base);
        edits.extend(part.edits.into_iter().map(|e| Edit {
            at: e.at + base,
            ..e
        }));
        text.push_str(&part.text);
        pre_all.push_str(&pre);
        linked.push(Unit {
            file,
            decls: part.unit.0,
        });
    }
    let first = linked[0].file.clone();
    let map = SourceMap::new(&pre_all, &first, edits)
        .with_inputs(linked.iter().map(|u| u.file.clone()).collect());
    let err = |e: Error| -> Error {
        let mut e = e;
        e.source = Some(Arc::new(map.clone()));
        e
    };
    // No `main` is a library (library mode generates one; without `--entry` the check
    // says the program has none, as for one file); two are two programs.
    let mains = main_definitions(&linked);
    match mains.as_slice() {
        [] | [_] => {}
        [(_, first), (_, second), ..] => {
            return Err(err(Error::new(
                ErrorKind::Usage,
                format!(
                    "`main` is defined in `{}` and in `{}`: link one program (one `main`)",
                    linked[*first].file, linked[*second].file
                ),
            )
            .at(mains[1].0, "a second `main`")));
        }
    }
    rename_statics(&mut linked);
    let decls = merge(linked).map_err(err)?;
    Ok(Parsed {
        path,
        text,
        unit: TranslationUnit(decls),
        map,
        omp_threads,
        omp_constructs,
        // Several files are not lowered again with another team size.
        omp_unlowered: None,
    })
}

struct Unit {
    file: String,
    decls: Vec<Node<ExternalDeclaration>>,
}

/// The span and unit of every definition of `main`.
fn main_definitions(units: &[Unit]) -> Vec<(Span, usize)> {
    let mut out = vec![];
    for (k, u) in units.iter().enumerate() {
        for d in &u.decls {
            if let ExternalDeclaration::FunctionDefinition(f) = &d.node {
                if function_name(&f.node) == Some("main") {
                    out.push((f.node.declarator.span, k));
                }
            }
        }
    }
    out
}

/// What one file-scope name is in one unit.
#[derive(Default)]
struct Symbol {
    /// Declared with `static` (internal linkage).
    is_static: bool,
    is_function: bool,
    /// The printed definition of a function (to compare helpers of shared headers).
    definition: Option<String>,
}

/// The ordinary identifiers a file-scope declaration declares (not typedef names).
fn declared(d: &ExternalDeclaration) -> Vec<(String, Symbol)> {
    match d {
        ExternalDeclaration::FunctionDefinition(f) => {
            let is_static = storage_of(&f.node.specifiers).contains(&StorageClassSpecifier::Static);
            function_name(&f.node)
                .map(|n| {
                    let text = print_unit(&TranslationUnit(vec![Node::new(
                        ExternalDeclaration::FunctionDefinition(f.clone()),
                        Span::none(),
                    )]))
                    .text;
                    vec![(
                        n.to_string(),
                        Symbol {
                            is_static,
                            is_function: true,
                            definition: Some(text),
                        },
                    )]
                })
                .unwrap_or_default()
        }
        ExternalDeclaration::Declaration(d) => {
            if is_typedef(&d.node) {
                return vec![];
            }
            let is_static = has_storage(&d.node, StorageClassSpecifier::Static);
            d.node
                .declarators
                .iter()
                .filter_map(|i| {
                    let dd = &i.node.declarator.node;
                    declarator_name(dd).map(|n| {
                        (
                            n.to_string(),
                            Symbol {
                                is_static,
                                is_function: is_function_declarator(dd),
                                definition: None,
                            },
                        )
                    })
                })
                .collect()
        }
        ExternalDeclaration::StaticAssert(_) => vec![],
    }
}

/// Renames, in each unit, the `static` names another unit also declares (see the module
/// header), with every use that sees them.
fn rename_statics(units: &mut [Unit]) {
    // name → for each unit declaring it: (unit, its symbols there)
    let mut table: HashMap<String, Vec<(usize, Symbol)>> = HashMap::new();
    for (k, u) in units.iter().enumerate() {
        for d in &u.decls {
            for (name, sym) in declared(&d.node) {
                let entry = table.entry(name).or_default();
                match entry.iter_mut().find(|(j, _)| *j == k) {
                    Some((_, s)) => {
                        s.is_static |= sym.is_static;
                        s.is_function |= sym.is_function;
                        if sym.definition.is_some() {
                            s.definition = sym.definition;
                        }
                    }
                    None => entry.push((k, sym)),
                }
            }
        }
    }
    let mut renames: Vec<HashMap<String, String>> = vec![HashMap::new(); units.len()];
    let mut sorted: Vec<_> = table.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, decls) in sorted {
        if decls.len() < 2 {
            continue;
        }
        // A static function defined alike wherever the name is declared: one shared helper.
        let shared_helper = decls.iter().all(|(_, s)| s.is_static && s.is_function)
            && decls
                .iter()
                .all(|(_, s)| s.definition.is_some() && s.definition == decls[0].1.definition);
        if shared_helper {
            continue;
        }
        for (k, s) in &decls {
            if s.is_static {
                renames[*k].insert(name.clone(), linked(&name, k + 1));
            }
        }
    }
    for (u, map) in units.iter_mut().zip(renames) {
        if !map.is_empty() {
            rename_in(&mut u.decls, &map);
        }
    }
}

/// Renames the file-scope names in `map` in one unit: their declarations and every use
/// that sees them.
fn rename_in(decls: &mut [Node<ExternalDeclaration>], map: &HashMap<String, String>) {
    let mut names = Names::new();
    let mut c = Copier::new(&mut names, Rename::None);
    for (orig, new) in map {
        c.bind(orig, new);
    }
    let renamed = |d: &mut Declarator| {
        if let Some(i) = declarator_name_mut(d) {
            if let Some(n) = map.get(&i.name) {
                i.name = n.clone();
            }
        }
    };
    for d in decls {
        match &mut d.node {
            ExternalDeclaration::Declaration(decl) => {
                for i in &mut decl.node.declarators {
                    if let Some(init) = &mut i.node.initializer {
                        let Ok(()) = visit_mut::initializer(&mut c, init);
                    }
                    renamed(&mut i.node.declarator.node);
                }
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                let f = &mut f.node;
                renamed(&mut f.declarator.node);
                c.open_scope();
                for p in parameter_names(&f.declarator.node) {
                    c.bind(&p, &p);
                }
                c.body(&mut f.statement);
                c.close_scope();
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
}

/// One list of external declarations: a declaration printed exactly as one of an earlier
/// unit is dropped; a struct, union or enum tag, or a typedef, defined differently in two
/// units is an error at the second.
fn merge(units: Vec<Unit>) -> Result<Vec<Node<ExternalDeclaration>>> {
    let mut seen: HashSet<String> = HashSet::new();
    // tag or typedef name → (printed definition, unit file)
    let mut types: HashMap<String, (String, String)> = HashMap::new();
    // enumerator → (value, unit file)
    let mut enumerators: HashMap<String, (i128, String)> = HashMap::new();
    let mut out = vec![];
    for (index, u) in units.into_iter().enumerate() {
        let mut canon = Canon::default();
        let mut typedef_renames: HashMap<String, String> = HashMap::new();
        let mut mine: HashSet<String> = HashSet::new();
        for mut d in u.decls {
            if !typedef_renames.is_empty() {
                rename_typedef_uses(&mut d, &typedef_renames);
            }
            let text = print_unit(&TranslationUnit(vec![d.clone()])).text;
            if let ExternalDeclaration::Declaration(decl) = &d.node {
                if is_typedef(&decl.node) {
                    for i in &decl.node.declarators {
                        canon.typedef(&decl.node, i);
                    }
                }
            }
            if seen.contains(&text) {
                continue;
            }
            if let ExternalDeclaration::Declaration(decl) = &mut d.node {
                if !known_enumerators(decl, &mut enumerators, &u.file)? {
                    continue;
                }
            }
            if let ExternalDeclaration::Declaration(decl) = &mut d.node {
                let mut again = vec![];
                let defs = type_definitions(&decl.node, &mut canon);
                // A typedef another unit defines differently: typedef names have no
                // linkage, so this unit's is renamed apart (glibc's `fd_set` has
                // `fds_bits` or `__fds_bits` by the feature macros).
                let clashes: Vec<String> = defs
                    .iter()
                    .filter(|(name, def)| {
                        matches!(types.get(name), Some((other, file)) if other != def && *file != u.file)
                    })
                    .filter_map(|(name, _)| name.strip_prefix("typedef ").map(str::to_string))
                    .collect();
                let defs = if clashes.is_empty() {
                    defs
                } else {
                    for c in clashes {
                        let new = linked(&c, index + 1);
                        typedef_renames.insert(c, new);
                    }
                    rename_typedefs(decl, &typedef_renames);
                    type_definitions(&decl.node, &mut canon)
                };
                for (name, def) in defs {
                    match types.get(&name) {
                        Some((other, file)) if *other != def && *file != u.file => {
                            return Err(Error::unsupported(
                                decl.span,
                                format!(
                                    "{name} is defined differently here and in `{file}`: \
                                     ladr links units that agree on their types"
                                ),
                            ));
                        }
                        Some((_, file)) if *file != u.file => again.push(name),
                        Some(_) => {}
                        None => {
                            types.insert(name, (def, u.file.clone()));
                        }
                    }
                }
                // A tag an earlier unit defined alike, in a declaration kept for its own
                // objects (`static const struct pair {…} table[] = …` of a header): the
                // object stays, the second body goes.
                strip_bodies(&mut decl.node, &again);
            }
            mine.insert(text);
            out.push(d);
        }
        seen.extend(mine);
    }
    Ok(out)
}

/// Renames the typedef names of `map` where `decl` defines them and where it uses them.
fn rename_typedefs(decl: &mut Node<Declaration>, map: &HashMap<String, String>) {
    if is_typedef(&decl.node) {
        for i in &mut decl.node.declarators {
            if let Some(n) = declarator_name_mut(&mut i.node.declarator.node) {
                if let Some(new) = map.get(&n.name) {
                    n.name = new.clone();
                }
            }
        }
    }
    let Ok(()) = visit_mut::declaration(&mut TypedefUses(map), decl);
}

/// Renames the uses of the typedef names of `map` in `d` (`fd_set x;`, `(fd_set *)p`).
fn rename_typedef_uses(d: &mut Node<ExternalDeclaration>, map: &HashMap<String, String>) {
    if let ExternalDeclaration::Declaration(decl) = &mut d.node {
        return rename_typedefs(decl, map);
    }
    let mut one = TranslationUnit(vec![d.clone()]);
    let Ok(()) = visit_mut::unit(&mut TypedefUses(map), &mut one);
    if let Some(renamed) = one.0.pop() {
        *d = renamed;
    }
}

struct TypedefUses<'a>(&'a HashMap<String, String>);

impl visit_mut::VisitorMut for TypedefUses<'_> {
    type Error = std::convert::Infallible;
    fn type_specifier(
        &mut self,
        t: &mut Node<TypeSpecifier>,
    ) -> std::result::Result<crate::syntax::walk::Walk, Self::Error> {
        if let TypeSpecifier::TypedefName(n) = &mut t.node {
            if let Some(new) = self.0.get(&n.node.name) {
                n.node.name = new.clone();
            }
        }
        Ok(crate::syntax::walk::Walk::Descend)
    }
}

/// Enumerators are file-scope names without linkage: two units that see a header under
/// different feature macros (`_XOPEN_SOURCE`, `-std=c99`) declare different versions of one
/// anonymous `enum`. An enumerator an earlier unit declared with the same value is taken out
/// of this declaration (the others keep their values, now written out); the same name with
/// another value is an error. Returns false when nothing is left to declare.
fn known_enumerators(
    decl: &mut Node<Declaration>,
    known: &mut HashMap<String, (i128, String)>,
    file: &str,
) -> Result<bool> {
    use crate::syntax::constant::{value, Env};
    let span = decl.span;
    let mut emptied = false;
    for sp in &mut decl.node.specifiers {
        let DeclarationSpecifier::TypeSpecifier(t) = &mut sp.node else {
            continue;
        };
        let TypeSpecifier::Enum(en) = &mut t.node else {
            continue;
        };
        if en.node.enumerators.is_empty() {
            continue;
        }
        // The values this enum's expressions may name: earlier enumerators, then its own.
        let mut local: HashMap<String, i128> =
            known.iter().map(|(k, (v, _))| (k.clone(), *v)).collect();
        let mut next: i128 = 0;
        let mut kept = vec![];
        let mut changed = false;
        for e in en.node.enumerators.clone() {
            let name = e.node.identifier.node.name.clone();
            let v = match &e.node.expression {
                Some(x) => match value(&x.node, &Env::values(&local)) {
                    Some(v) => v,
                    // A value ladr cannot compute: keep the enum as it is.
                    None => return Ok(true),
                },
                None => next,
            };
            next = v + 1;
            local.insert(name.clone(), v);
            match known.get(&name) {
                Some((old, _)) if *old == v => changed = true,
                Some((old, other)) => {
                    return Err(Error::unsupported(
                        span,
                        format!(
                            "enumerator `{name}` is {v} here and {old} in `{other}`: ladr links \
                             units that agree on their constants"
                        ),
                    ));
                }
                None => kept.push((e, v)),
            }
        }
        for (e, v) in &kept {
            known.insert(e.node.identifier.node.name.clone(), (*v, file.to_string()));
        }
        en.node.enumerators = kept
            .into_iter()
            .map(|(mut e, v)| {
                if changed {
                    let at = e.span;
                    e.node.expression = Some(Box::new(if v < 0 {
                        unop(UnaryOperator::Minus, int(v.unsigned_abs() as u64, at), at)
                    } else {
                        int(v as u64, at)
                    }));
                }
                e
            })
            .collect();
        emptied |= en.node.enumerators.is_empty() && en.node.identifier.is_none();
    }
    Ok(!(emptied && decl.node.declarators.is_empty()))
}

/// Turns `struct tag { … }` into `struct tag` for the tags named (as "struct tag").
fn strip_bodies(d: &mut Declaration, tags: &[String]) {
    for s in &mut d.specifiers {
        if let DeclarationSpecifier::TypeSpecifier(t) = &mut s.node {
            if let TypeSpecifier::Struct(st) = &mut t.node {
                let named = st
                    .node
                    .identifier
                    .as_ref()
                    .is_some_and(|i| tags.contains(&format!("struct {}", i.node.name)));
                if named {
                    st.node.declarations = None;
                }
            }
        }
    }
}

/// The tags a declaration defines (`struct s { … }`) and the typedef names it declares,
/// each with its printed definition.
fn type_definitions(d: &Declaration, canon: &mut Canon) -> Vec<(String, String)> {
    let mut out = vec![];
    for s in &d.specifiers {
        if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
            let tagged = match &t.node {
                TypeSpecifier::Struct(st) => st
                    .node
                    .declarations
                    .is_some()
                    .then(|| {
                        st.node
                            .identifier
                            .as_ref()
                            .map(|i| format!("struct {}", i.node.name))
                    })
                    .flatten(),
                TypeSpecifier::Enum(en) => (!en.node.enumerators.is_empty())
                    .then(|| {
                        en.node
                            .identifier
                            .as_ref()
                            .map(|i| format!("enum {}", i.node.name))
                    })
                    .flatten(),
                _ => None,
            };
            if let Some(tag) = tagged {
                let only = Declaration {
                    specifiers: vec![s.clone()],
                    declarators: vec![],
                };
                out.push((tag, declaration_text(only)));
            }
        }
    }
    if is_typedef(d) {
        for i in &d.declarators {
            if let Some(n) = declarator_name(&i.node.declarator.node) {
                out.push((format!("typedef {n}"), canon.typedef(d, i)));
            }
        }
    }
    out
}

fn declaration_text(d: Declaration) -> String {
    print_unit(&TranslationUnit(vec![Node::new(
        ExternalDeclaration::Declaration(Node::new(d, Span::none())),
        Span::none(),
    )]))
    .text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn write(dir: &std::path::Path, name: &str, text: &str) -> Input {
        let path = dir.join(name);
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .unwrap();
        Input {
            path,
            opts: Options::default(),
        }
    }

    fn linked(files: &[(&str, &str)]) -> Result<(Parsed, String)> {
        // Removed when dropped: no `ladr-link-*` directory is left behind.
        let dir = tempfile::tempdir().unwrap();
        let inputs: Vec<Input> = files.iter().map(|(n, t)| write(dir.path(), n, t)).collect();
        let p = load_all(&inputs)?;
        let text = print_unit(&p.unit).text;
        Ok((p, text))
    }

    const HEADER: &str = "struct q { int n; };\nextern int shared;\nint put(struct q *q);\n";

    #[test]
    fn statics_of_the_same_name_stay_apart_and_shadowing_locals_are_kept() {
        let (p, text) = linked(&[
            (
                "a.i",
                &format!("{HEADER}static int count;\nint shared;\nint main(void) {{ count = 1; return put(0); }}\n"),
            ),
            (
                "b.i",
                &format!(
                    "{HEADER}static int count;\nint put(struct q *q) {{ count++; {{ int count = 2; count--; }} return shared; }}\n"
                ),
            ),
        ])
        .unwrap();
        // One struct definition, two `count`s, the inner local untouched.
        assert_eq!(text.matches("struct q {").count(), 1, "{text}");
        assert!(text.contains("static int count__ladr_u1;"), "{text}");
        assert!(text.contains("count__ladr_u1 = 1"), "{text}");
        assert!(text.contains("static int count__ladr_u2;"), "{text}");
        assert!(text.contains("count__ladr_u2++"), "{text}");
        assert!(text.contains("int count = 2;"), "{text}");
        assert!(text.contains(" count--"), "{text}");
        // Locations name each file.
        let put = p
            .unit
            .0
            .iter()
            .find_map(|d| match &d.node {
                ExternalDeclaration::FunctionDefinition(f)
                    if function_name(&f.node) == Some("put") =>
                {
                    Some(f.node.statement.span)
                }
                _ => None,
            })
            .unwrap();
        let loc = p.map.lookup(put.start);
        assert!(loc.file.ends_with("b.i"), "{loc}");
        assert_eq!(loc.line, 5);
    }

    #[test]
    fn shared_static_helpers_are_kept_once() {
        let h = "static inline int twice(int x) { return 2 * x; }\n";
        let (_, text) = linked(&[
            (
                "a.i",
                &format!("{h}int f(int);\nint main(void) {{ return twice(f(1)); }}\n"),
            ),
            ("b.i", &format!("{h}int f(int y) {{ return twice(y); }}\n")),
        ])
        .unwrap();
        assert_eq!(text.matches("int twice(int x)").count(), 1, "{text}");
        assert!(!text.contains("__ladr_"), "{text}");
    }

    #[test]
    fn no_main_links_a_library_and_two_are_an_error_naming_the_files() {
        // A library (library mode generates its `main`): `f` meets `g` of the other file.
        let (_, text) = linked(&[
            ("a.i", "extern int g;\nint f(void) { return g; }\n"),
            ("b.i", "int g;\n"),
        ])
        .unwrap();
        assert!(text.contains("return g;"), "{text}");
        let e = linked(&[
            ("a.i", "int main(void) { return 0; }\n"),
            ("b.i", "int main(void) { return 1; }\n"),
        ])
        .err()
        .unwrap();
        assert!(e.message.contains("`main` is defined in"), "{}", e.message);
        let loc = e.loc(e.source.as_deref().unwrap()).unwrap();
        assert!(loc.file.ends_with("b.i"), "{loc}");
    }

    #[test]
    fn one_enum_seen_under_different_feature_macros_declares_each_enumerator_once() {
        let (_, text) = linked(&[
            ("a.i", "enum { A, B };\nint main(void) { return B; }\n"),
            (
                "b.i",
                "enum { A, B, C, D = A };\nint f(void) { return C + D; }\n",
            ),
        ])
        .unwrap();
        assert_eq!(
            text.matches(" A,").count() + text.matches(" A\n").count(),
            1,
            "{text}"
        );
        assert!(text.contains("C = 2") && text.contains("D = 0"), "{text}");
        let e = linked(&[
            ("a.i", "enum { A, B };\nint main(void) { return B; }\n"),
            ("b.i", "enum { B, A };\n"),
        ])
        .err()
        .unwrap();
        assert!(
            e.message.contains("enumerator `B` is 0 here and 1"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_header_table_with_its_struct_is_one_type_and_two_objects() {
        let h = "static const struct pair { int id; } table[] = {{1}, {2}};\n";
        let (_, text) = linked(&[
            (
                "a.i",
                &format!("{h}int main(void) {{ return table[0].id; }}\n"),
            ),
            (
                "b.i",
                &format!("{h}int f(void) {{ return table[1].id; }}\n"),
            ),
        ])
        .unwrap();
        assert_eq!(text.matches("struct pair {").count(), 1, "{text}");
        assert!(
            text.contains("table__ladr_u1") && text.contains("table__ladr_u2"),
            "{text}"
        );
    }

    #[test]
    fn a_type_defined_differently_is_an_error_at_the_second() {
        let e = linked(&[
            (
                "a.i",
                "struct s { int a; };\nint main(void) { return 0; }\n",
            ),
            ("b.i", "\nstruct s { long a; };\n"),
        ])
        .err()
        .unwrap();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        let loc = e.loc(e.source.as_deref().unwrap()).unwrap();
        assert!(loc.file.ends_with("b.i") && loc.line == 2, "{loc}");
    }
}
