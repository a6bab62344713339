//! One declaration per setting: `declare_settings!` turns each field (documentation, type,
//! default, environment variable) into the struct field serde reads and a [`Declaration`], from
//! which the environment is read and against which the settings table of
//! `docs/configuration.md` is checked.

use anyhow::{Context, bail};
use std::path::PathBuf;

/// One setting as declared: what the settings table of `docs/configuration.md` shows for it, and
/// what reading its environment variable needs.
#[derive(Debug, Clone, Copy)]
pub struct Declaration {
    /// The TOML table it lives in (`crawler` for `crawler.allow_private_networks`); `None` at the
    /// top level.
    pub table: Option<&'static str>,
    /// The key inside its table.
    pub name: &'static str,
    /// Its environment variable; `None` when it is read from the file only.
    pub env: Option<&'static str>,
    /// How the variable's text is read; it follows from the field's type.
    pub kind: Kind,
    /// The field's documentation, which is the settings table's "meaning".
    pub meaning: &'static str,
    /// For a default that is no plain value (an option left `None`, an empty list): what leaving
    /// it unset means, in words.
    pub(super) unset: Option<&'static str>,
    /// The typed default as the settings table writes it (`16`, `` `info` ``, `off`); `None` when unset.
    pub(super) typed_default: fn() -> Option<String>,
}

impl Declaration {
    /// The full key: `bind`, `crawler.allow_private_networks`.
    pub fn key(&self) -> String {
        match self.table {
            Some(table) => format!("{table}.{}", self.name),
            None => self.name.to_owned(),
        }
    }

    /// The default as the settings table shows it: the typed default, or what leaving the setting
    /// unset means.
    pub fn default_text(&self) -> String {
        (self.typed_default)().or_else(|| self.unset.map(str::to_owned)).unwrap_or_default()
    }
}

/// How an environment variable's text becomes a setting's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `1`, `true`, `yes` or `0`, `false`, `no`.
    Bool,
    Integer,
    /// Taken as it is.
    Text,
    /// Comma-separated; empty items are dropped.
    List,
}

impl Kind {
    /// The TOML value for the text of the variable `var`; a bad value names the variable.
    fn parse(self, var: &str, raw: &str) -> anyhow::Result<toml::Value> {
        Ok(match self {
            Kind::Bool => toml::Value::Boolean(match raw.trim() {
                "1" | "true" | "yes" => true,
                "0" | "false" | "no" => false,
                _ => bail!("{var} must be true or false"),
            }),
            Kind::Integer => toml::Value::Integer(raw.trim().parse().with_context(|| format!("{var} must be a whole number"))?),
            Kind::Text => toml::Value::String(raw.to_owned()),
            Kind::List => toml::Value::Array(
                raw.split(',').map(str::trim).filter(|item| !item.is_empty()).map(|item| toml::Value::String(item.to_owned())).collect(),
            ),
        })
    }
}

/// What a setting's Rust type means for its environment variable and for the settings table.
pub(super) trait SettingType {
    const KIND: Kind;

    /// The value as the settings table writes it; `None` for an empty option or list, whose
    /// meaning the declaration says in words (`unset "..."`).
    fn shown(&self) -> Option<String>;
}

impl SettingType for String {
    const KIND: Kind = Kind::Text;

    fn shown(&self) -> Option<String> {
        Some(format!("`{self}`"))
    }
}

impl SettingType for PathBuf {
    const KIND: Kind = Kind::Text;

    fn shown(&self) -> Option<String> {
        Some(format!("`{}`", self.display()))
    }
}

impl SettingType for bool {
    const KIND: Kind = Kind::Bool;

    fn shown(&self) -> Option<String> {
        Some(if *self { "on" } else { "off" }.to_owned())
    }
}

macro_rules! integer_setting_types {
    ($($ty:ty),*) => {$(
        impl SettingType for $ty {
            const KIND: Kind = Kind::Integer;

            fn shown(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}

integer_setting_types!(u32, u64, usize);

impl SettingType for Vec<String> {
    const KIND: Kind = Kind::List;

    fn shown(&self) -> Option<String> {
        (!self.is_empty()).then(|| self.iter().map(|item| format!("`{item}`")).collect::<Vec<_>>().join(", "))
    }
}

impl<T: SettingType> SettingType for Option<T> {
    const KIND: Kind = T::KIND;

    fn shown(&self) -> Option<String> {
        self.as_ref().and_then(T::shown)
    }
}

/// Declares a settings struct, each field once:
///
/// ```text
/// /// meaning, as the settings table says it
/// name: Type = default, unset "what unset means", env "LAUNCHDIR_NAME";
/// ```
///
/// `unset` is for defaults that are no plain value (`None`, an empty list); without `env` the
/// setting is read from the file only. Generates the struct (read by serde, unknown keys refused,
/// missing keys defaulted), its `Default`, and `DECLARED`, its [`Declaration`]s. The struct of the
/// top level names its tables after `tables`, and gets `declarations()`, every setting's.
macro_rules! declare_settings {
    (@option) => { None };
    (@option $value:literal) => { Some($value) };
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])+
                $field:ident: $ty:ty = $default:expr $(, unset $unset:literal)? $(, env $env:literal)?;
            )*
        }
        $(tables {
            $(
                $(#[doc = $table_doc:literal])+
                $table:ident: $table_ty:ident,
            )*
        })?
    ) => {
        $(#[$attr])*
        #[derive(Clone, ::serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(
                $(#[doc = $doc])+
                pub $field: $ty,
            )*
            $($(
                $(#[doc = $table_doc])+
                pub $table: $table_ty,
            )*)?
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)* $($($table: $table_ty::default(),)*)? }
            }
        }

        impl $name {
            /// The settings of this struct itself, without its tables'.
            pub(in crate::settings) const DECLARED: &[Declaration] = &[$(
                Declaration {
                    table: None,
                    name: stringify!($field),
                    env: declare_settings!(@option $($env)?),
                    kind: <$ty as SettingType>::KIND,
                    meaning: concat!($($doc),+).trim_ascii_start(),
                    unset: declare_settings!(@option $($unset)?),
                    typed_default: || SettingType::shown(&$name::default().$field),
                },
            )*];

            $(
                /// Every declared setting, the tables' included, in declaration order.
                pub fn declarations() -> Vec<Declaration> {
                    let mut all = Self::DECLARED.to_vec();
                    $(all.extend($table_ty::DECLARED.iter().map(|declared| Declaration { table: Some(stringify!($table)), ..*declared }));)*
                    all
                }
            )?
        }
    };
}

pub(super) use declare_settings;

/// Writes the value of every declared variable that `env` has into `table` (the file's settings),
/// so that the environment wins over the file.
pub(super) fn layer_environment(
    table: &mut toml::Table,
    declarations: &[Declaration],
    env: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<()> {
    for declared in declarations {
        let Some(var) = declared.env else { continue };
        let Some(raw) = env(var) else { continue };
        let value = declared.kind.parse(var, &raw)?;
        let target = match declared.table {
            None => &mut *table,
            Some(name) => {
                let entry = table.entry(name.to_owned()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
                let Some(section) = entry.as_table_mut() else { bail!("[{name}] must be a table") };
                section
            }
        };
        target.insert(declared.name.to_owned(), value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use std::collections::HashSet;

    #[test]
    fn every_default_is_a_value_or_said_in_words() {
        for declared in Settings::declarations() {
            let typed = (declared.typed_default)();
            assert!(typed.is_some() != declared.unset.is_some(), "{}: typed default {typed:?}, unset {:?}", declared.key(), declared.unset);
        }
    }

    #[test]
    fn keys_and_variables_are_unique() {
        let declarations = Settings::declarations();
        let mut keys = HashSet::new();
        let mut vars = HashSet::new();
        for declared in &declarations {
            assert!(keys.insert(declared.key()), "{} is declared twice", declared.key());
            if let Some(var) = declared.env {
                assert!(var.starts_with("LAUNCHDIR_"), "{var}");
                assert!(vars.insert(var), "{var} is declared twice");
            }
        }
    }

    /// Each variable lands on its field with a value of the field's type (no variable is read
    /// as text for a number, say).
    #[test]
    fn every_variable_reaches_its_setting() {
        let declarations = Settings::declarations();
        for declared in &declarations {
            let Some(var) = declared.env else { continue };
            let raw = match declared.kind {
                Kind::Bool => "true".to_owned(),
                Kind::Integer => "7".to_owned(),
                Kind::List => "a, b".to_owned(),
                // The default itself, for texts that only take some values (`log_format`).
                Kind::Text => (declared.typed_default)().map_or("x".to_owned(), |shown| shown.trim_matches('`').to_owned()),
            };
            let mut table = toml::Table::new();
            layer_environment(&mut table, &declarations, |name| (name == var).then(|| raw.clone())).unwrap();
            let value = match declared.table {
                Some(name) => &table[name][declared.name],
                None => &table[declared.name],
            };
            assert_eq!(value, &declared.kind.parse(var, &raw).unwrap(), "{var}");
            if let Err(err) = table.try_into::<Settings>() {
                panic!("{var}={raw}: {err:#}");
            }
        }
    }
}
