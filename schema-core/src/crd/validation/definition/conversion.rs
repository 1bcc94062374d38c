//! `validateCustomResourceConversion`: the conversion strategy, the
//! webhook's client configuration (URL or service) and its conversion
//! review versions.

use std::collections::HashSet;

use serde_json::Value;

use super::names::validate_enum_strings;
use crate::crd::internal::{Conversion, opt_str};
use crate::go::names::{is_dns1035_label, is_dns1123_subdomain};
use crate::model::field::{BadValue, ErrorList, ErrorType, FieldError, Path};
use crate::model::wire::ServiceReference;

/// `validateCustomResourceConversion` (the `caBundle` is checked only when
/// `allowInvalidCABundle` is false, never on create).
pub(super) fn validate_conversion(
    c: &Conversion<'_>,
    require_recognized_version: bool,
    allow_invalid_ca_bundle: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    validate_enum_strings(&p.child("strategy"), c.strategy, &["None", "Webhook"], errs);
    let ccp = p.child("webhookClientConfig");
    if c.strategy == "Webhook" {
        match c.client_config {
            None => errs.push(FieldError::required(
                &ccp,
                "required when strategy is set to Webhook",
            )),
            Some(cc) => match (&cc.url, &cc.service) {
                (Some(url), None) => validate_webhook_url(&ccp.child("url"), url, errs),
                (None, Some(svc)) => validate_webhook_service(&ccp.child("service"), svc, errs),
                _ => errs.push(FieldError::required(
                    &ccp,
                    "exactly one of url or service is required",
                )),
            },
        }
        if let Some(bundle) = c.client_config.and_then(|cc| cc.ca_bundle.as_deref()) {
            if !allow_invalid_ca_bundle {
                errs.extend(validate_ca_bundle(&ccp.child("caBundle"), bundle));
            }
        }
        validate_conversion_review_versions(
            c.review_versions,
            require_recognized_version,
            &p.child("conversionReviewVersions"),
            errs,
        );
    } else {
        if c.client_config.is_some() {
            errs.push(FieldError::forbidden(
                &ccp,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !c.review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                &p.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// `validateConversionReviewVersions`.
fn validate_conversion_review_versions(
    versions: &[String],
    require_recognized_version: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    if versions.is_empty() {
        errs.push(FieldError::required(p, ""));
        return;
    }
    let mut seen: HashSet<&str> = HashSet::new();
    let mut has_accepted = false;
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            errs.push(FieldError::invalid(
                &p.index(i),
                v.as_str(),
                "duplicate version",
            ));
            continue;
        }
        for msg in is_dns1035_label(v) {
            errs.push(FieldError::invalid(&p.index(i), v.as_str(), msg));
        }
        if is_accepted_conversion_review_version(v) {
            has_accepted = true;
        }
    }
    if require_recognized_version && !has_accepted {
        errs.push(FieldError::invalid(
            p,
            Value::from(versions.to_vec()),
            "must include at least one of v1, v1beta1",
        ));
    }
}

/// `isAcceptedConversionReviewVersion`: `v1` or `v1beta1`.
pub(crate) fn is_accepted_conversion_review_version(v: &str) -> bool {
    v == "v1" || v == "v1beta1"
}

/// `webhook.ValidateCABundle(fldPath, caBundle)` of a `caBundle` as written
/// (base64): `Invalid` with the bundle and client-go's error when it holds
/// no certificate that Go's `x509.ParseCertificate` accepts (see
/// [`ca_bundle`](super::ca_bundle)). An empty bundle, or one that is not
/// base64 (which the server's decoder rejects before validation), is not
/// checked.
pub(crate) fn validate_ca_bundle(p: &Path, bundle: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(bytes) = crate::go::base64::std_decode(bundle).filter(|b| !b.is_empty()) else {
        return errs;
    };
    if let Err(e) = super::ca_bundle::validate_ca_data(&bytes) {
        // The bad value is the `[]byte`, which json.Marshal writes as base64.
        errs.push(FieldError {
            error_type: ErrorType::Invalid,
            field: p.clone(),
            bad_value: BadValue::Json(Value::String(super::ca_bundle::std_encode(&bytes))),
            detail: e,
        });
    }
    errs
}

/// `webhook.ValidateWebhookURL` with `forceHttps`.
fn validate_webhook_url(p: &Path, url: &str, errs: &mut ErrorList) {
    const FORM: &str = "; desired format: https://host[/path]";
    match crate::go::url::parse(url) {
        Err(e) => errs.push(FieldError::required(
            p,
            format!("url must be a valid URL: {e}{FORM}"),
        )),
        Ok(u) => {
            if u.scheme != "https" {
                errs.push(FieldError::invalid(
                    p,
                    u.scheme.as_str(),
                    format!("'https' is the only allowed URL scheme{FORM}"),
                ));
            }
            if u.host.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.host.as_str(),
                    format!("host must be specified{FORM}"),
                ));
            }
            if let Some(user) = &u.user {
                errs.push(FieldError::invalid(
                    p,
                    user.as_str(),
                    "user information is not permitted in the URL",
                ));
            }
            if !u.fragment.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.fragment.as_str(),
                    "fragments are not permitted in the URL",
                ));
            }
            if !u.raw_query.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    u.raw_query.as_str(),
                    "query parameters are not permitted in the URL",
                ));
            }
        }
    }
}

/// `webhook.ValidateWebhookService`.
fn validate_webhook_service(p: &Path, svc: &ServiceReference, errs: &mut ErrorList) {
    if opt_str(svc.name.as_ref()).is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    }
    if opt_str(svc.namespace.as_ref()).is_empty() {
        errs.push(FieldError::required(&p.child("namespace"), ""));
    }
    let port = svc.port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        errs.push(FieldError::invalid(
            &p.child("port"),
            port,
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(url_path) = svc.path.as_deref() else {
        return;
    };
    let pp = p.child("path");
    if url_path == "/" || url_path.is_empty() {
        return;
    }
    if url_path == "//" {
        errs.push(FieldError::invalid(
            &pp,
            url_path,
            "segment[0] may not be empty",
        ));
        return;
    }
    if !url_path.starts_with('/') {
        errs.push(FieldError::invalid(&pp, url_path, "must start with a '/'"));
    }
    // Go drops the first byte whether or not it is a '/'.
    let mut check = url_path.as_bytes().get(1..).unwrap_or_default();
    if let Some(stripped) = check.strip_suffix(b"/") {
        check = stripped;
    }
    for (i, step) in check.split(|b| *b == b'/').enumerate() {
        if step.is_empty() {
            errs.push(FieldError::invalid(
                &pp,
                url_path,
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        let step = String::from_utf8_lossy(step);
        for failure in is_dns1123_subdomain(&step) {
            errs.push(FieldError::invalid(
                &pp,
                url_path,
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
}
