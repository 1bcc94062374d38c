//! The error context: every spanned error of one expansion is collected,
//! and the context must be checked before code is generated (as
//! serde_derive's `Ctxt`, without the drop bomb: library code never panics).

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// Collects errors; [`Ctxt::check`] turns them into one `syn::Error`.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
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
