//! Whole-CRD validation.
