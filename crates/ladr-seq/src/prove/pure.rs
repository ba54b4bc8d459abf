//! Library functions without a body that the proof may follow (issue 30 on real code):
//! ones that never call a function of the program and touch no memory of it, and the
//! known ones a function pointer may name. Without this list, a call of such a function
//! with an argument that is not plainly arithmetic (`__builtin_expect(p->n == 0, 0)`,
//! `malloc(sizeof *p * p->n)`) made the proof give up on the whole program, for it may
//! have been handed a function pointer to call back. Inline assembly that is only a
//! spin-wait hint is no access either. Also the lists of library functions whose pointer
//! arguments are only read, only synchronisation objects, or never kept.

use crate::model::library;
use lang_c::ast::{AsmStatement, StringLiteral};

/// Functions that compute a value from their arguments' values and nothing else: they
/// read no memory through a pointer argument, write none, keep no pointer and call no
/// function of the program (GCC's value builtins, thread identities, the allocators:
/// a fresh block is no object of the program's yet). A prefetch is no access of the C
/// memory model. `exit` and `atexit` are not here: they run the program's handlers.
pub fn value_only(name: &str) -> bool {
    matches!(
        name,
        "__builtin_expect"
            | "__builtin_expect_with_probability"
            | "__builtin_prefetch"
            | "__builtin_assume_aligned"
            | "pthread_equal"
            | "pthread_self"
            | "malloc"
            | "calloc"
            | "aligned_alloc"
            | "memalign"
            | "valloc"
    )
}

/// May a call through a function pointer that may name `name`, a function without a
/// body, be followed as a direct call of it: one whose only effects are those of
/// [`library::effects`] or none ([`value_only`]), and which calls no function back.
pub fn indirect_target(name: &str) -> bool {
    value_only(name) || library::effects(name).is_some()
}

/// Inline assembly that touches no memory and no variable: no operands, and
/// instructions that are nothing or a spin-wait hint (`pause`, `yield`, `nop`: the
/// `SPINLOCK_BACKOFF` of thmap and rpmalloc). A `"memory"` clobber only makes it a
/// compiler barrier, which orders nothing the proof relies on. Extended assembly with
/// operands and no `"memory"` clobber reaches the proof as C ([`super::asm`]); any other
/// stops it.
pub fn inert_asm(asm: &AsmStatement) -> bool {
    let template = match asm {
        AsmStatement::GnuBasic(t) => &t.node,
        AsmStatement::GnuExtended(g) if g.outputs.is_empty() && g.inputs.is_empty() => {
            &g.template.node
        }
        AsmStatement::GnuExtended(_) => return false,
    };
    let Some(text) = text_of(template) else {
        return false;
    };
    text.to_ascii_lowercase().split("\\n").all(|i| {
        let words = i.replace("\\t", " ");
        let words: Vec<&str> = words.split_whitespace().collect();
        matches!(
            words.join(" ").as_str(),
            "" | "pause" | "yield" | "nop" | "rep; nop" | "rep;nop" | "rep nop"
        )
    })
}

/// The text of a string literal's pieces, without their quotes (`None`: a prefixed one).
pub(super) fn text_of(literal: &StringLiteral) -> Option<String> {
    let mut text = String::new();
    for piece in literal {
        text.push_str(piece.strip_prefix('"').and_then(|p| p.strip_suffix('"'))?);
    }
    Some(text)
}

/// Functions that read through their pointer arguments and keep none of them.
const PRINTS: &[&str] = &[
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush", "perror", "assert",
];

/// Functions whose pointer arguments are synchronisation objects (or their attributes)
/// and nothing else: they touch no data of the program and keep no pointer to it.
const SYNC_OBJECTS: &[&str] = &[
    "pthread_mutex",
    "pthread_cond",
    "pthread_spin",
    "pthread_rwlock",
    "pthread_barrier",
    "pthread_attr",
    "sem_",
];

/// Library functions with known effects that neither return a pointer into an argument
/// nor store one anywhere: the objects their pointer arguments point to do not escape.
/// Any other (`memcpy` returns its destination, `strchr` a pointer into its argument,
/// `strtol` stores one through its second) lets them escape.
const KEEPS_NO_POINTER: &[&str] = &[
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "memcmp",
    "strcoll",
    "atoi",
    "atol",
    "atoll",
    "puts",
    "fputs",
    "fwrite",
    "write",
    "send",
    "pwrite",
    "read",
    "recv",
    "pread",
    "fread",
    "pipe",
    "socketpair",
    "free",
    "sprintf",
    "snprintf",
    "vsprintf",
    "vsnprintf",
    "bzero",
    "explicit_bzero",
    "scanf",
    "__isoc99_scanf",
    "fscanf",
    "__isoc99_fscanf",
    "sscanf",
    "__isoc99_sscanf",
];

/// Does `name` take only synchronisation objects (and their attributes)?
pub fn sync_objects(name: &str) -> bool {
    SYNC_OBJECTS.iter().any(|p| name.starts_with(p))
}

/// Does `name` keep no pointer it is given ([`KEEPS_NO_POINTER`])?
pub fn keeps_no_pointer(name: &str) -> bool {
    KEEPS_NO_POINTER.contains(&name)
}

/// Does `name` only read through its pointer arguments ([`PRINTS`])?
pub fn prints(name: &str) -> bool {
    PRINTS.contains(&name)
}
