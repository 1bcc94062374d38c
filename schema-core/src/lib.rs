//! The structural-schema IR of Kubernetes CRDs and the algorithms the API server runs on it.
