// One custom resource per kind name, each with an empty spec and no
// `plural`: the derive picks the plural of every kind by its own rule.

/// Declares, per kind, a module named after it holding an empty spec with
/// `#[kube(kind = ...)]` (the root type takes the kind's name), and
/// `plurals()`, each kind with its root's `Resource::plural`.
macro_rules! kinds {
    ($($kind:ident = $name:tt),* $(,)?) => {
        $(
            #[allow(non_snake_case)]
            mod $kind {
                use super::{CustomResource, JsonSchema};

                #[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug, JsonSchema)]
                #[kube(group = "plurals.example.com", version = "v1", kind = $name)]
                pub struct Spec {}
            }
        )*

        /// Every kind with the plural its root reports.
        pub fn plurals() -> Vec<(&'static str, String)> {
            vec![$(($name, <$kind::$kind as kube::Resource>::plural(&()).into_owned())),*]
        }
    };
}

kinds! {
    // The names kube-rs users are known to meet.
    Redis = "Redis",
    Mongo = "Mongo",
    Index = "Index",
    Metrics = "Metrics",
    Settings = "Settings",
    Credentials = "Credentials",
    Rules = "Rules",
    Secrets = "Secrets",
    Data = "Data",
    Dns = "Dns",
    Endpoints = "Endpoints",
    Series = "Series",
    Person = "Person",
    Child = "Child",
    // Endings the rules treat apart: -s, -x, -z, -ch, -sh, -y.
    Policy = "Policy",
    Mailbox = "Mailbox",
    Batch = "Batch",
    Day = "Day",
    Key = "Key",
    Proxy = "Proxy",
    Gateway = "Gateway",
    Ingress = "Ingress",
    Class = "Class",
    Status = "Status",
    Alias = "Alias",
    Bus = "Bus",
    Quiz = "Quiz",
    Match = "Match",
    Mesh = "Mesh",
    Hash = "Hash",
    Entry = "Entry",
    Registry = "Registry",
    Repository = "Repository",
    Library = "Library",
    Toy = "Toy",
    Journey = "Journey",
    // English irregulars and Latin and Greek plurals.
    Hero = "Hero",
    Potato = "Potato",
    Photo = "Photo",
    Video = "Video",
    Echo = "Echo",
    Cactus = "Cactus",
    Analysis = "Analysis",
    Crisis = "Crisis",
    Matrix = "Matrix",
    Vertex = "Vertex",
    Appendix = "Appendix",
    Leaf = "Leaf",
    Knife = "Knife",
    Wolf = "Wolf",
    Life = "Life",
    Sheep = "Sheep",
    Fish = "Fish",
    Species = "Species",
    News = "News",
    Man = "Man",
    Woman = "Woman",
    Foot = "Foot",
    Tooth = "Tooth",
    Goose = "Goose",
    Mouse = "Mouse",
    Ox = "Ox",
    Criterion = "Criterion",
    Datum = "Datum",
    Medium = "Medium",
    Schema = "Schema",
    Quota = "Quota",
    Canvas = "Canvas",
    Address = "Address",
    Access = "Access",
    Storage = "Storage",
    Information = "Information",
    Equipment = "Equipment",
    // Kubernetes kinds, acronyms and compounds.
    NodeMetrics = "NodeMetrics",
    PodMetrics = "PodMetrics",
    EndpointSlice = "EndpointSlice",
    NetworkPolicy = "NetworkPolicy",
    IngressClass = "IngressClass",
    DNSRecord = "DNSRecord",
    APIService = "APIService",
    IPAddress = "IPAddress",
    CSIDriver = "CSIDriver",
    HTTPRoute = "HTTPRoute",
    TLSRoute = "TLSRoute",
    ServiceMonitor = "ServiceMonitor",
    PrometheusRule = "PrometheusRule",
    Alertmanager = "Alertmanager",
    CertificateRequest = "CertificateRequest",
    ClusterIssuer = "ClusterIssuer",
    VirtualService = "VirtualService",
    DestinationRule = "DestinationRule",
    Postgres = "Postgres",
    Kafka = "Kafka",
    KafkaTopic = "KafkaTopic",
    ElasticSearch = "ElasticSearch",
}
