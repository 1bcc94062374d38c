//! The context of one expansion: the derive's [`Dialect`] (which
//! attributes it reads) and every spanned error, collected; the context
//! must be checked before code is generated (as serde_derive's `Ctxt`,
//! without the drop bomb: library code never panics).

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// Which derive is expanding, and so which attributes it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// `#[derive(StructuralSchema)]`: `#[schema(...)]` and serde's.
    #[default]
    Native,
    /// `#[derive(JsonSchema)]`: also what schemars reads
    /// (`#[schemars(...)]`, `#[garde(...)]`, `#[validate(...)]`), with
    /// schemars' conventions where they change the schema (`Option` is
    /// nullable, serde's default values are schema defaults).
    Schemars,
}

/// Collects errors; [`Ctxt::check`] turns them into one `syn::Error`.
#[derive(Default)]
pub struct Ctxt {
    dialect: Dialect,
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An empty context for `dialect`.
    pub fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            errors: RefCell::default(),
        }
    }

    /// The derive's dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// An error at `span`.
    pub fn error(&self, span: Span, msg: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new(span, msg));
    }

    /// An error spanning the tokens of `obj`.
    pub fn error_spanned_by(&self, obj: impl ToTokens, msg: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// One of syn's errors.
    pub fn syn_error(&self, e: syn::Error) {
        self.errors.borrow_mut().push(e);
    }

    /// Whether anything was reported.
    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// All errors as `compile_error!` invocations, or `Ok` when there are none.
    pub fn check(self) -> Result<(), TokenStream> {
        let errors = self.errors.into_inner();
        let mut it = errors.into_iter();
        let Some(mut first) = it.next() else {
            return Ok(());
        };
        for e in it {
            first.combine(e);
        }
        Err(first.to_compile_error())
    }
}
