//! Gateway API's `HTTPRoute` (`gateway.networking.k8s.io`), versions `v1`
//! (stored) and `v1beta1`, as the standard channel publishes them. The
//! types follow kubernetes-sigs/gateway-api at commit `4564255a`:
//! `apis/v1/httproute_types.go`, `apis/v1/shared_types.go`,
//! `apis/v1/object_reference_types.go` and `apis/v1beta1/httproute_types.go`.
//!
//! Upstream, `v1beta1` declares its own root type and aliases everything
//! else to `v1` (`type HTTPRouteSpec = v1.HTTPRouteSpec`, ...), so here the
//! `v1beta1` module holds only its root object, built from the `v1` spec and
//! status. Fields that upstream marks `<gateway:experimental>` (a rule's
//! `retry` and `sessionPersistence`, the `ExternalAuth` filter, the spec's
//! `useDefaultGateways`) are not part of the standard CRD and are left out;
//! where a marker has a standard and an experimental form, the standard one
//! is written.

/// The stored version, `gateway.networking.k8s.io/v1`.
pub mod v1 {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
    use schema_core::StructuralSchema;
    use serde::{Deserialize, Serialize};

    // -----------------------------------------------------------------------
    // The spec
    // -----------------------------------------------------------------------

    /// What an HTTPRoute asks for: the parents it attaches to, the host names
    /// it serves and the rules that route its requests.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(crd(
        group = "gateway.networking.k8s.io",
        version = "v1",
        annotations = {
            "api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/4530",
            "gateway.networking.k8s.io/bundle-version": "v0.0.0-dev",
            "gateway.networking.k8s.io/channel": "standard",
        },
        kind = "HTTPRoute",
        namespaced,
        categories = ["gateway-api"],
        status = HTTPRouteStatus,
        printer_column(name = "Hostnames", type = "string", json_path = ".spec.hostnames"),
        printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
        doc = "An HTTPRoute routes HTTP requests that reach its parent Gateways, matched by host, path, headers, query parameters or method, through optional filters to backends.",
    ))]
    pub struct HTTPRouteSpec {
        /// The parent references, which every route kind has.
        #[serde(flatten)]
        pub common: CommonRouteSpec,

        /// Host names matched against the request's Host header; a leading
        /// `*.` label matches any subdomain. Empty: every host of the parent.
        #[schema(list_type = "atomic", max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub hostnames: Vec<Hostname>,

        /// The routing rules. Unset, a single rule matching every path (a
        /// `/` prefix) is filled in.
        #[schema(
            list_type = "atomic",
            min_items = 1,
            max_items = 16,
            default = [{"matches": [{"path": {"type": "PathPrefix", "value": "/"}}]}],
            validation(
                rule = "(self.size() > 0 ? self[0].matches.size() : 0) + (self.size() > 1 ? self[1].matches.size() : 0) + (self.size() > 2 ? self[2].matches.size() : 0) + (self.size() > 3 ? self[3].matches.size() : 0) + (self.size() > 4 ? self[4].matches.size() : 0) + (self.size() > 5 ? self[5].matches.size() : 0) + (self.size() > 6 ? self[6].matches.size() : 0) + (self.size() > 7 ? self[7].matches.size() : 0) + (self.size() > 8 ? self[8].matches.size() : 0) + (self.size() > 9 ? self[9].matches.size() : 0) + (self.size() > 10 ? self[10].matches.size() : 0) + (self.size() > 11 ? self[11].matches.size() : 0) + (self.size() > 12 ? self[12].matches.size() : 0) + (self.size() > 13 ? self[13].matches.size() : 0) + (self.size() > 14 ? self[14].matches.size() : 0) + (self.size() > 15 ? self[15].matches.size() : 0) <= 128",
                message = "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128",
            ),
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub rules: Vec<HTTPRouteRule>,
    }

    /// The part of the spec that every route kind (HTTP, gRPC, TLS, ...) has.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct CommonRouteSpec {
        /// The Gateways (or Services, for a mesh) this route wants to attach
        /// to. Two references to the same parent must tell themselves apart
        /// by distinct section names.
        #[schema(
            list_type = "atomic",
            max_items = 32,
            validation(
                rule = "self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '')) : true))",
                message = "sectionName must be specified when parentRefs includes 2 or more references to the same parent",
            ),
            validation(
                rule = "self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))",
                message = "sectionName must be unique when parentRefs includes 2 or more references to the same parent",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub parent_refs: Vec<ParentReference>,
    }

    /// One parent of a route, usually a Gateway, optionally narrowed to a
    /// listener (`sectionName`) or a port.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct ParentReference {
        /// API group of the parent; empty for the core group.
        #[schema(default = "gateway.networking.k8s.io")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub group: Option<Group>,

        /// Kind of the parent.
        #[schema(default = "Gateway")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub kind: Option<Kind>,

        /// Namespace of the parent; the route's own when unset.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub namespace: Option<Namespace>,

        /// Name of the parent.
        pub name: ObjectName,

        /// A part of the parent: a Gateway's listener, a Service's port name.
        /// Unset: the whole parent.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub section_name: Option<SectionName>,

        /// A port of the parent to attach to, instead of a named section.
        #[schema(minimum = 1, maximum = 65535)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<PortNumber>,
    }

    /// One routing rule: which requests it takes (matches), what happens to
    /// them on the way (filters) and where they go (backendRefs).
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(
        validation(
            rule = "(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true",
            message = "RequestRedirect filter must not be used together with backendRefs",
        ),
        validation(
            rule = "(has(self.filters) && self.filters.exists_one(f, has(f.requestRedirect) && has(f.requestRedirect.path) && f.requestRedirect.path.type == 'ReplacePrefixMatch' && has(f.requestRedirect.path.replacePrefixMatch))) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true",
            message = "When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ),
        validation(
            rule = "(has(self.filters) && self.filters.exists_one(f, has(f.urlRewrite) && has(f.urlRewrite.path) && f.urlRewrite.path.type == 'ReplacePrefixMatch' && has(f.urlRewrite.path.replacePrefixMatch))) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true",
            message = "When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ),
        validation(
            rule = "(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, has(f.requestRedirect) && has(f.requestRedirect.path) && f.requestRedirect.path.type == 'ReplacePrefixMatch' && has(f.requestRedirect.path.replacePrefixMatch))) )) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true",
            message = "Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ),
        validation(
            rule = "(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, has(f.urlRewrite) && has(f.urlRewrite.path) && f.urlRewrite.path.type == 'ReplacePrefixMatch' && has(f.urlRewrite.path.replacePrefixMatch))) )) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true",
            message = "Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        )
    )]
    pub struct HTTPRouteRule {
        /// An optional name, unique within the route, that policies and
        /// status can point at.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub name: Option<SectionName>,

        /// Alternatives: the rule takes a request that satisfies any one of
        /// them. None given: a `/` prefix match, which takes everything.
        #[schema(
            list_type = "atomic",
            max_items = 64,
            default = [{"path": {"type": "PathPrefix", "value": "/"}}],
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub matches: Vec<HTTPRouteMatch>,

        /// Processing applied, in order where possible, to the requests this
        /// rule takes. Each kind but mirroring and extensions at most once;
        /// a redirect and a rewrite exclude each other.
        #[schema(
            list_type = "atomic",
            max_items = 16,
            validation(
                rule = "!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))",
                message = "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
            ),
            validation(
                rule = "self.filter(f, f.type == 'CORS').size() <= 1",
                message = "CORS filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1",
                message = "RequestHeaderModifier filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1",
                message = "ResponseHeaderModifier filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'RequestRedirect').size() <= 1",
                message = "RequestRedirect filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'URLRewrite').size() <= 1",
                message = "URLRewrite filter cannot be repeated",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub filters: Vec<HTTPRouteFilter>,

        /// Where the requests go, split by weight. Invalid backends answer
        /// 500 for their share of the traffic.
        #[schema(list_type = "atomic", max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub backend_refs: Vec<HTTPBackendRef>,

        /// Time limits for the requests this rule takes.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeouts: Option<HTTPRouteTimeouts>,
    }

    /// Time limits of a request, as Gateway API durations (`0s` turns one
    /// off). The backend's limit may not exceed the whole request's.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(validation(
        rule = "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
        message = "backendRequest timeout cannot be longer than request timeout",
    ))]
    pub struct HTTPRouteTimeouts {
        /// How long the gateway may take to answer the client.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub request: Option<Duration>,

        /// How long one call from the gateway to a backend may take.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub backend_request: Option<Duration>,
    }

    // -----------------------------------------------------------------------
    // Matches
    // -----------------------------------------------------------------------

    /// Conditions a request must all meet: path, headers, query parameters
    /// and method.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct HTTPRouteMatch {
        /// The request path condition; a `/` prefix when unset.
        #[schema(default = {"type": "PathPrefix", "value": "/"})]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub path: Option<HTTPPathMatch>,

        /// Header conditions, one per header name.
        #[schema(list_type = "map", list_map_keys = ["name"], max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub headers: Vec<HTTPHeaderMatch>,

        /// Query parameter conditions, one per parameter name.
        #[schema(list_type = "map", list_map_keys = ["name"], max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub query_params: Vec<HTTPQueryParamMatch>,

        /// The request method, when it matters.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub method: Option<HTTPMethod>,
    }

    /// A condition on the request path. Exact and prefix paths must be
    /// clean absolute paths (no `//`, dot segments, encoded slashes or `#`).
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? self.value.startsWith('/') : true",
            message = "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true",
            message = "must not contain '//' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('/./') : true",
            message = "must not contain '/./' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('/../') : true",
            message = "must not contain '/../' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('%2f') : true",
            message = "must not contain '%2f' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('%2F') : true",
            message = "must not contain '%2F' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('#') : true",
            message = "must not contain '#' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.endsWith('/..') : true",
            message = "must not end with '/..' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "(self.type in ['Exact','PathPrefix']) ? !self.value.endsWith('/.') : true",
            message = "must not end with '/.' when type one of ['Exact', 'PathPrefix']",
        ),
        validation(
            rule = "self.type in ['Exact','PathPrefix'] || self.type == 'RegularExpression'",
            message = "type must be one of ['Exact', 'PathPrefix', 'RegularExpression']",
        ),
        validation(
            rule = r#"(self.type in ['Exact','PathPrefix']) ? self.value.matches(r"""^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$""") : true"#,
            message = "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
        )
    )]
    pub struct HTTPPathMatch {
        /// How `value` is compared with the path.
        #[schema(default = "PathPrefix")]
        #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
        pub type_: Option<PathMatchType>,

        /// The path, prefix or expression to compare with.
        #[schema(default = "/", max_length = 1024)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub value: Option<String>,
    }

    /// How a path is compared.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    pub enum PathMatchType {
        /// The whole path, case-sensitive.
        Exact,
        /// Whole leading path segments: `/abc` takes `/abc/def`, not `/abcd`.
        PathPrefix,
        /// A regular expression in the implementation's dialect.
        RegularExpression,
    }

    /// How a header value is compared.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    pub enum HeaderMatchType {
        /// Equal to the value.
        Exact,
        /// Matching a regular expression in the implementation's dialect.
        RegularExpression,
    }

    /// A condition on one request header.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPHeaderMatch {
        /// How `value` is compared.
        #[schema(default = "Exact")]
        #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
        pub type_: Option<HeaderMatchType>,

        /// The header, compared without regard to case.
        pub name: HTTPHeaderName,

        /// The value (or expression) the header must have.
        #[schema(min_length = 1, max_length = 4096)]
        pub value: String,
    }

    /// How a query parameter value is compared.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    pub enum QueryParamMatchType {
        /// Equal to the value.
        Exact,
        /// Matching a regular expression in the implementation's dialect.
        RegularExpression,
    }

    /// A condition on one query parameter.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPQueryParamMatch {
        /// How `value` is compared.
        #[schema(default = "Exact")]
        #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
        pub type_: Option<QueryParamMatchType>,

        /// The parameter, compared exactly.
        pub name: HTTPHeaderName,

        /// The value (or expression) the parameter must have.
        #[schema(min_length = 1, max_length = 1024)]
        pub value: String,
    }

    /// An HTTP method, upper case.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "UPPERCASE")]
    pub enum HTTPMethod {
        Get,
        Head,
        Post,
        Put,
        Delete,
        Connect,
        Options,
        Trace,
        Patch,
    }

    /// An HTTP method, or `*` for all of them (CORS).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "UPPERCASE")]
    pub enum HTTPMethodWithWildcard {
        Get,
        Head,
        Post,
        Put,
        Delete,
        Connect,
        Options,
        Trace,
        Patch,
        /// Every method.
        #[serde(rename = "*")]
        Any,
    }

    // -----------------------------------------------------------------------
    // Filters
    // -----------------------------------------------------------------------

    /// One processing step. `type` names it, and exactly the field of that
    /// type is set.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(
        validation(
            rule = "!(has(self.cors) && self.type != 'CORS')",
            message = "filter.cors must be nil if the filter.type is not CORS",
        ),
        validation(
            rule = "!(!has(self.cors) && self.type == 'CORS')",
            message = "filter.cors must be specified for CORS filter.type",
        ),
        validation(
            rule = "!(has(self.requestHeaderModifier) && self.type != 'RequestHeaderModifier')",
            message = "filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier",
        ),
        validation(
            rule = "!(!has(self.requestHeaderModifier) && self.type == 'RequestHeaderModifier')",
            message = "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type",
        ),
        validation(
            rule = "!(has(self.responseHeaderModifier) && self.type != 'ResponseHeaderModifier')",
            message = "filter.responseHeaderModifier must be nil if the filter.type is not ResponseHeaderModifier",
        ),
        validation(
            rule = "!(!has(self.responseHeaderModifier) && self.type == 'ResponseHeaderModifier')",
            message = "filter.responseHeaderModifier must be specified for ResponseHeaderModifier filter.type",
        ),
        validation(
            rule = "!(has(self.requestMirror) && self.type != 'RequestMirror')",
            message = "filter.requestMirror must be nil if the filter.type is not RequestMirror",
        ),
        validation(
            rule = "!(!has(self.requestMirror) && self.type == 'RequestMirror')",
            message = "filter.requestMirror must be specified for RequestMirror filter.type",
        ),
        validation(
            rule = "!(has(self.requestRedirect) && self.type != 'RequestRedirect')",
            message = "filter.requestRedirect must be nil if the filter.type is not RequestRedirect",
        ),
        validation(
            rule = "!(!has(self.requestRedirect) && self.type == 'RequestRedirect')",
            message = "filter.requestRedirect must be specified for RequestRedirect filter.type",
        ),
        validation(
            rule = "!(has(self.urlRewrite) && self.type != 'URLRewrite')",
            message = "filter.urlRewrite must be nil if the filter.type is not URLRewrite",
        ),
        validation(
            rule = "!(!has(self.urlRewrite) && self.type == 'URLRewrite')",
            message = "filter.urlRewrite must be specified for URLRewrite filter.type",
        ),
        validation(
            rule = "!(has(self.extensionRef) && self.type != 'ExtensionRef')",
            message = "filter.extensionRef must be nil if the filter.type is not ExtensionRef",
        ),
        validation(
            rule = "!(!has(self.extensionRef) && self.type == 'ExtensionRef')",
            message = "filter.extensionRef must be specified for ExtensionRef filter.type",
        )
    )]
    pub struct HTTPRouteFilter {
        /// Which filter this is.
        #[serde(rename = "type")]
        pub type_: HTTPRouteFilterType,

        /// Edits the request's headers.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub request_header_modifier: Option<HTTPHeaderFilter>,

        /// Edits the response's headers.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub response_header_modifier: Option<HTTPHeaderFilter>,

        /// Sends a copy of the request elsewhere and ignores the answer.
        #[schema(validation(
            rule = "!(has(self.percent) && has(self.fraction))",
            message = "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter",
        ))]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub request_mirror: Option<HTTPRequestMirrorFilter>,

        /// Answers with a redirect instead of forwarding.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub request_redirect: Option<HTTPRequestRedirectFilter>,

        /// Rewrites host or path while forwarding.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub url_rewrite: Option<HTTPURLRewriteFilter>,

        /// Answers cross-origin requests with CORS headers.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cors: Option<HTTPCORSFilter>,

        /// An implementation's own filter, as a reference to its
        /// configuration object.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub extension_ref: Option<LocalObjectReference>,
    }

    /// The kinds of filter the standard channel has.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    pub enum HTTPRouteFilterType {
        RequestHeaderModifier,
        ResponseHeaderModifier,
        RequestMirror,
        RequestRedirect,
        #[serde(rename = "URLRewrite")]
        UrlRewrite,
        ExtensionRef,
        #[serde(rename = "CORS")]
        Cors,
    }

    /// A header name and its value.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPHeader {
        /// The header, compared without regard to case.
        pub name: HTTPHeaderName,

        /// Its value.
        #[schema(min_length = 1, max_length = 4096)]
        pub value: String,
    }

    /// Header edits: overwrite, append, remove.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPHeaderFilter {
        /// Headers to set, replacing any value they had.
        #[schema(list_type = "map", list_map_keys = ["name"], max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub set: Vec<HTTPHeader>,

        /// Headers to append to, keeping any value they had.
        #[schema(list_type = "map", list_map_keys = ["name"], max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub add: Vec<HTTPHeader>,

        /// Names of headers to drop.
        #[schema(list_type = "set", max_items = 16)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub remove: Vec<String>,
    }

    /// How a redirect or rewrite changes the path.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    pub enum HTTPPathModifierType {
        /// Replace the whole path.
        ReplaceFullPath,
        /// Replace only the part a prefix match matched.
        ReplacePrefixMatch,
    }

    /// A path change; the field its `type` names must be set, and only it.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(
        validation(
            rule = "self.type == 'ReplaceFullPath' ? has(self.replaceFullPath) : true",
            message = "replaceFullPath must be specified when type is set to 'ReplaceFullPath'",
        ),
        validation(
            rule = "has(self.replaceFullPath) ? self.type == 'ReplaceFullPath' : true",
            message = "type must be 'ReplaceFullPath' when replaceFullPath is set",
        ),
        validation(
            rule = "self.type == 'ReplacePrefixMatch' ? has(self.replacePrefixMatch) : true",
            message = "replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'",
        ),
        validation(
            rule = "has(self.replacePrefixMatch) ? self.type == 'ReplacePrefixMatch' : true",
            message = "type must be 'ReplacePrefixMatch' when replacePrefixMatch is set",
        )
    )]
    pub struct HTTPPathModifier {
        /// Which replacement.
        #[serde(rename = "type")]
        pub type_: HTTPPathModifierType,

        /// The new path.
        #[schema(max_length = 1024)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub replace_full_path: Option<String>,

        /// What the matched prefix becomes.
        #[schema(max_length = 1024)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub replace_prefix_match: Option<String>,
    }

    /// A redirect answer; unset parts keep the request's own.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct HTTPRequestRedirectFilter {
        /// The scheme of the new location.
        #[schema(enum = ["http", "https"])]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub scheme: Option<String>,

        /// The host of the new location.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub hostname: Option<PreciseHostname>,

        /// How the path of the new location is made.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub path: Option<HTTPPathModifier>,

        /// The port of the new location.
        #[schema(minimum = 1, maximum = 65535)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<PortNumber>,

        /// The redirect status code.
        #[schema(default = 302, enum = [301, 302, 303, 307, 308])]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub status_code: Option<isize>,
    }

    /// A rewrite of host or path on the way to the backend.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPURLRewriteFilter {
        /// The Host header the backend sees.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub hostname: Option<PreciseHostname>,

        /// How the path the backend sees is made.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub path: Option<HTTPPathModifier>,
    }

    /// Mirroring of requests to another backend, all of them or a share.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct HTTPRequestMirrorFilter {
        /// Where the copies go.
        pub backend_ref: BackendObjectReference,

        /// The share of requests mirrored, in percent.
        #[schema(minimum = 0, maximum = 100)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub percent: Option<i32>,

        /// The share of requests mirrored, as a fraction.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub fraction: Option<Fraction>,
    }

    /// A proportion `numerator / denominator`, at most one.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[schema(validation(
        rule = "self.numerator <= self.denominator",
        message = "numerator must be less than or equal to denominator",
    ))]
    pub struct Fraction {
        #[schema(minimum = 0)]
        pub numerator: i32,

        #[schema(default = 100, minimum = 1)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub denominator: Option<i32>,
    }

    /// The CORS answer the gateway gives for a route. A `*` entry in a list
    /// must stand alone.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct HTTPCORSFilter {
        /// Origins allowed to call, or `*`.
        #[schema(
            list_type = "set",
            max_items = 64,
            validation(
                rule = "!('*' in self && self.size() > 1)",
                message = "AllowOrigins cannot contain '*' alongside other origins",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub allow_origins: Vec<CORSOrigin>,

        /// Whether credentials may be sent along.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub allow_credentials: Option<bool>,

        /// Methods allowed, or `*`.
        #[schema(
            list_type = "set",
            max_items = 9,
            validation(
                rule = "!('*' in self && self.size() > 1)",
                message = "AllowMethods cannot contain '*' alongside other methods",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub allow_methods: Vec<HTTPMethodWithWildcard>,

        /// Request headers allowed, or `*`.
        #[schema(
            list_type = "set",
            max_items = 64,
            validation(
                rule = "!('*' in self && self.size() > 1)",
                message = "AllowHeaders cannot contain '*' alongside other methods",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub allow_headers: Vec<HTTPHeaderName>,

        /// Response headers scripts may read beyond the safelisted ones.
        #[schema(list_type = "set", max_items = 64)]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub expose_headers: Vec<HTTPHeaderName>,

        /// Seconds a client may cache a preflight answer.
        #[schema(default = 5, minimum = 1)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub max_age: Option<i32>,
    }

    // -----------------------------------------------------------------------
    // Backends and references
    // -----------------------------------------------------------------------

    /// A backend of a rule, with its weight and its own filters.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct HTTPBackendRef {
        /// The backend and its weight.
        #[serde(flatten)]
        pub backend_ref: BackendRef,

        /// Filters applied only to requests sent to this backend.
        #[schema(
            list_type = "atomic",
            max_items = 16,
            validation(
                rule = "!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))",
                message = "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
            ),
            validation(
                rule = "self.filter(f, f.type == 'CORS').size() <= 1",
                message = "CORS filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1",
                message = "RequestHeaderModifier filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1",
                message = "ResponseHeaderModifier filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'RequestRedirect').size() <= 1",
                message = "RequestRedirect filter cannot be repeated",
            ),
            validation(
                rule = "self.filter(f, f.type == 'URLRewrite').size() <= 1",
                message = "URLRewrite filter cannot be repeated",
            )
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub filters: Vec<HTTPRouteFilter>,
    }

    /// A backend and the share of traffic it gets.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct BackendRef {
        /// The backend object.
        #[serde(flatten)]
        pub object: BackendObjectReference,

        /// Relative share of the rule's requests; 0 sends none.
        #[schema(default = 1, minimum = 0, maximum = 1_000_000)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub weight: Option<i32>,
    }

    /// A backend object, a Service unless said otherwise. Another namespace
    /// needs a ReferenceGrant there.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[schema(validation(
        rule = "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
        message = "Must have port for Service reference",
    ))]
    pub struct BackendObjectReference {
        /// API group of the backend; empty for the core group.
        #[schema(default = "")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub group: Option<Group>,

        /// Kind of the backend.
        #[schema(default = "Service")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub kind: Option<Kind>,

        /// Name of the backend.
        pub name: ObjectName,

        /// Namespace of the backend; the route's own when unset.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub namespace: Option<Namespace>,

        /// Port to send to; a Service's port (not its target port), required
        /// for Services.
        #[schema(minimum = 1, maximum = 65535)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub port: Option<PortNumber>,
    }

    /// An object in the route's own namespace, named by group, kind and
    /// name.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct LocalObjectReference {
        /// API group; empty for the core group.
        pub group: Group,
        /// Kind.
        pub kind: Kind,
        /// Name.
        pub name: ObjectName,
    }

    // -----------------------------------------------------------------------
    // Status
    // -----------------------------------------------------------------------

    /// What the controllers of the route's parents report.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct HTTPRouteStatus {
        /// The status every route kind shares.
        #[serde(flatten)]
        pub route_status: RouteStatus,
    }

    /// Per parent, the status its controller reports for the route.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
    pub struct RouteStatus {
        /// One entry per parent and controller that handles the route.
        #[schema(list_type = "atomic", max_items = 32)]
        pub parents: Vec<RouteParentStatus>,
    }

    /// The status of the route with respect to one parent.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    pub struct RouteParentStatus {
        /// The parent this entry is about.
        pub parent_ref: ParentReference,

        /// The controller that wrote this entry.
        pub controller_name: GatewayController,

        /// Conditions such as `Accepted` and `ResolvedRefs`, one per type.
        #[schema(list_type = "map", list_map_keys = ["type"], min_items = 1, max_items = 8)]
        pub conditions: Vec<Condition>,
    }

    // -----------------------------------------------------------------------
    // Names and values
    // -----------------------------------------------------------------------

    /// A port number.
    pub type PortNumber = i32;

    /// A host name a route serves, with an optional leading `*.` wildcard
    /// label; not an IP address.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 253,
        pattern = r"^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
    )]
    pub struct Hostname(pub String);

    /// A host name without wildcards.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 253,
        pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
    )]
    pub struct PreciseHostname(pub String);

    /// A Kubernetes API group; empty for the core group.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        max_length = 253,
        pattern = r"^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
    )]
    pub struct Group(pub String);

    /// A Kubernetes kind.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 63,
        pattern = r"^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$"
    )]
    pub struct Kind(pub String);

    /// An object name.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(min_length = 1, max_length = 253)]
    pub struct ObjectName(pub String);

    /// A namespace name (a DNS label).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 63,
        pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
    )]
    pub struct Namespace(pub String);

    /// The name of a part of an object: a listener, a port, a route rule.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 253,
        pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
    )]
    pub struct SectionName(pub String);

    /// The name of a Gateway API controller: a domain, then a path.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 253,
        pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$"
    )]
    pub struct GatewayController(pub String);

    /// A header (or query parameter) name: an RFC 7230 token.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 256,
        pattern = r"^[A-Za-z0-9!#$%&'*+\-.^_\x60|~]+$"
    )]
    pub struct HeaderName(pub String);

    /// The name of an HTTP header.
    pub type HTTPHeaderName = HeaderName;

    /// A CORS origin: `scheme://host[:port]`, the host possibly starting
    /// with a `*.` label, or `*` alone.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(
        min_length = 1,
        max_length = 253,
        pattern = r"(^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)"
    )]
    pub struct CORSOrigin(pub String);

    /// A Gateway API duration (GEP-2257): up to four `<number><unit>` parts,
    /// units `h`, `m`, `s` and `ms`, such as `1h30m` or `500ms`.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
    #[schema(pattern = r"^([0-9]{1,5}(h|m|s|ms)){1,4}$")]
    pub struct Duration(pub String);
}

/// The older served version, `gateway.networking.k8s.io/v1beta1`: the same
/// object as `v1` under another API version.
pub mod v1beta1 {
    use schema_core::StructuralSchema;
    use schema_core::rust::ObjectMeta;
    use serde::{Deserialize, Serialize};

    // Upstream's v1beta1 aliases its spec, status and every type below them
    // to v1's; here they are v1's too.
    pub use super::v1::{HTTPRouteSpec, HTTPRouteStatus};

    /// An HTTPRoute as `v1beta1` serves it; its spec and status are `v1`'s.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(crd(
        group = "gateway.networking.k8s.io",
        version = "v1beta1",
        annotations = {
            "api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/4530",
            "gateway.networking.k8s.io/bundle-version": "v0.0.0-dev",
            "gateway.networking.k8s.io/channel": "standard",
        },
        kind = "HTTPRoute",
        namespaced,
        categories = ["gateway-api"],
        storage = false,
        object_root,
        printer_column(name = "Hostnames", type = "string", json_path = ".spec.hostnames"),
        printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    ))]
    pub struct HTTPRoute {
        /// The object's API version, `gateway.networking.k8s.io/v1beta1`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub api_version: Option<String>,

        /// The object's kind, `HTTPRoute`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub kind: Option<String>,

        #[serde(default)]
        #[schema(type = "object")]
        pub metadata: ObjectMeta,

        /// What the route asks for.
        pub spec: HTTPRouteSpec,

        /// What the parents' controllers report.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub status: Option<HTTPRouteStatus>,
    }
}
