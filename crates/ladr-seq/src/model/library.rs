//! Memory effects of C library functions without a body in the input: which pointer
//! arguments they read or write through. `race` instruments such a call as an access of the
//! first byte of each object they touch (`*(char *)p`): shadow memory is per byte, so this
//! catches every conflicting access that overlaps that byte, and never reports a conflict
//! the call cannot have (at worst it misses one on later bytes of a buffer).
//!
//! Functions not listed here are treated as not touching memory through their arguments
//! (their arguments themselves are still evaluated and instrumented as reads).

/// How a call uses the object one of its pointer arguments points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Read,
    Write,
}

/// Which arguments an effect applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Args {
    /// The argument at this index.
    At(usize),
    /// This argument and every later one (the pointers after a `scanf` format).
    From(usize),
}

/// The memory effects of library function `name`, if it is one ladr knows.
pub fn effects(name: &str) -> Option<&'static [(Args, Effect)]> {
    use Args::*;
    use Effect::*;
    Some(match name {
        "scanf" | "__isoc99_scanf" => &[(At(0), Read), (From(1), Write)],
        "fscanf" | "__isoc99_fscanf" => &[(At(1), Read), (From(2), Write)],
        "sscanf" | "__isoc99_sscanf" => &[(At(0), Read), (At(1), Read), (From(2), Write)],
        "memset" | "bzero" | "explicit_bzero" => &[(At(0), Write)],
        "memcpy" | "memmove" | "strcpy" | "strncpy" | "stpcpy" => &[(At(0), Write), (At(1), Read)],
        "strcat" | "strncat" => &[(At(0), Write), (At(0), Read), (At(1), Read)],
        "sprintf" | "snprintf" | "vsprintf" | "vsnprintf" => &[(At(0), Write)],
        "fgets" | "gets" => &[(At(0), Write)],
        "fread" => &[(At(0), Write)],
        "read" | "recv" | "pread" => &[(At(1), Write)],
        "fwrite" => &[(At(0), Read)],
        "write" | "send" | "pwrite" => &[(At(1), Read)],
        "strlen" | "strnlen" | "strdup" | "strndup" | "atoi" | "atol" | "atoll" | "strtol"
        | "strtoul" | "strtoll" | "strtoull" | "puts" | "strchr" | "strrchr" => &[(At(0), Read)],
        "fputs" => &[(At(0), Read)],
        "strcmp" | "strncmp" | "memcmp" | "strstr" | "strcoll" => &[(At(0), Read), (At(1), Read)],
        "memchr" => &[(At(0), Read)],
        _ => return None,
    })
}

/// The library functions with a model in `model/string.c` (`__ladr_<name>`): those whose
/// CBMC model loops over the characters of a string.
pub const STRING_MODELS: &[&str] = &[
    "strlen",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "strcpy",
    "stpcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strchr",
    "strrchr",
    "atoi",
    "atol",
    "atoll",
    "strtol",
    "strtoul",
    "strtoll",
    "strtoull",
    "snprintf",
    "vsnprintf",
    "sprintf",
    "vsprintf",
];

/// Is there a model of library function `name` in `model/string.c`?
pub fn has_model(name: &str) -> bool {
    STRING_MODELS.contains(&name)
}

/// The argument indices `a` selects in a call with `n` arguments.
pub fn selected(a: Args, n: usize) -> std::ops::Range<usize> {
    match a {
        Args::At(i) => i..(i + 1).min(n).max(i),
        Args::From(i) => i.min(n)..n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanf_writes_every_pointer_after_the_format() {
        let e = effects("scanf").unwrap();
        assert_eq!(e[1], (Args::From(1), Effect::Write));
        assert_eq!(selected(Args::From(1), 3), 1..3);
        assert_eq!(selected(Args::At(1), 3), 1..2);
        assert_eq!(selected(Args::At(3), 2), 3..3);
        assert!(effects("printf").is_none());
    }
}
