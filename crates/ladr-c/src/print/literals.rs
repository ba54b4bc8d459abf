//! Literals: integer, floating and character constants with their prefixes and suffixes,
//! TS 18661 float type names, and string literals (adjacent pieces kept as written).

use super::Printer;
use lang_c::ast::*;

impl Printer {
    pub(super) fn string_literal(&mut self, s: &StringLiteral) {
        if s.is_empty() {
            self.write("\"\"");
        }
        for (i, piece) in s.iter().enumerate() {
            if i > 0 {
                self.write(" ");
            }
            self.write(piece);
        }
    }
}

pub(super) fn ts18661(t: &TS18661FloatType, type_name: bool) -> String {
    let (base, ext) = match t.format {
        TS18661FloatFormat::BinaryInterchange => (if type_name { "_Float" } else { "f" }, ""),
        TS18661FloatFormat::BinaryExtended => (if type_name { "_Float" } else { "f" }, "x"),
        TS18661FloatFormat::DecimalInterchange => (if type_name { "_Decimal" } else { "d" }, ""),
        TS18661FloatFormat::DecimalExtended => (if type_name { "_Decimal" } else { "d" }, "x"),
    };
    format!("{}{}{}", base, t.width, ext)
}

pub(super) fn constant_text(c: &Constant) -> String {
    match c {
        Constant::Integer(i) => {
            let prefix = match i.base {
                IntegerBase::Decimal => "",
                IntegerBase::Octal => "0",
                IntegerBase::Hexadecimal => "0x",
                IntegerBase::Binary => "0b",
            };
            let mut s = format!("{}{}", prefix, i.number);
            if i.suffix.unsigned {
                s.push('u');
            }
            match i.suffix.size {
                IntegerSize::Int => {}
                IntegerSize::Long => s.push('l'),
                IntegerSize::LongLong => s.push_str("ll"),
            }
            if i.suffix.imaginary {
                s.push('i');
            }
            s
        }
        Constant::Float(f) => {
            let prefix = match f.base {
                FloatBase::Decimal => "",
                FloatBase::Hexadecimal => "0x",
            };
            let mut s = format!("{}{}", prefix, f.number);
            match &f.suffix.format {
                FloatFormat::Float => s.push('f'),
                FloatFormat::Double => {}
                FloatFormat::LongDouble => s.push('l'),
                FloatFormat::TS18661Format(t) => s.push_str(&ts18661(t, false)),
            }
            if f.suffix.imaginary {
                s.push('i');
            }
            s
        }
        Constant::Character(c) => c.clone(),
    }
}
