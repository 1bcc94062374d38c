//! The walks along a structural schema (pruning, removal of non-nullable
//! nulls, metadata coercion and validation, defaulting, list checks, and
//! a resource's whole decoding), run with prepared schema views (fused,
//! skipping subtrees) and plainly, must
//! give exactly what the server's sequential algorithms give: the same
//! object (key order included), pruned paths and errors.
//!
//! The reference is a frozen copy of the straightforward sequential
//! implementations (below, [`reference`]), run on random objects built
//! from every schema of the corpus CRDs and of the prune and default
//! conformance cases, with unknown fields, nulls, wrong types, metadata and
//! list items mixed in.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_core::model::field::Path;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::structural::Structural;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::codec::{DecodeCx, Wire};
use schema_core::model::wire::input::read_input_owned;
use schema_core::object::default::{
    default, default_view, prune_non_nullable_nulls_without_defaults,
};
use schema_core::object::list_types::{
    validate_list_sets_and_maps, validate_list_sets_and_maps_view,
};
use schema_core::object::metadata::walk::{
    coerce_value, coerce_value_view, validate_meta, validate_meta_view,
};
use schema_core::object::prune::{prune, prune_and_drop_nulls, prune_drop_nulls_and_default};
use schema_core::object::prune_default_walk::decode_resource;
use schema_core::object::schema_view::{IndexedSchema, View};
use serde_json::{Map, Value, json};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True with probability `p` percent.
    fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> Option<&'a T> {
        if v.is_empty() {
            return None;
        }
        v.get(usize::try_from(self.below(v.len() as u64)).unwrap_or(0))
    }
}

fn junk(r: &mut Rng, depth: usize) -> Value {
    match r.below(if depth > 2 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(r.pct(50)),
        2 => json!(r.below(10)),
        3 => json!(1.5),
        4 => json!(["a", "a", 1]),
        5 => json!(format!("s{}", r.below(3))),
        6 => json!({"x": junk(r, depth + 1), "": null, "metadata": {"name": 5}}),
        _ => json!([junk(r, depth + 1), {"y": null}]),
    }
}

fn metadata(r: &mut Rng) -> Value {
    match r.below(6) {
        0 => json!({"name": "n", "namespace": "ns", "labels": {"a": "b"}}),
        1 => json!({"name": 3}),
        2 => json!({"name": "Bad_Name", "generateName": "g-", "unknown": 1}),
        3 => json!("metadata"),
        4 => Value::Null,
        _ => json!({"annotations": {"x": "y"}, "creationTimestamp": null, "labels": null}),
    }
}

/// A random value roughly following `s`.
fn arbitrary(r: &mut Rng, s: Option<&Structural>, depth: usize) -> Value {
    let Some(s) = s else {
        return junk(r, depth);
    };
    if r.pct(8) {
        return Value::Null;
    }
    if r.pct(5) {
        return junk(r, depth);
    }
    if depth > 9 {
        return Value::Null;
    }
    if let Some(e) = r.pick(&s.vv().enum_) {
        if r.pct(70) {
            return e.clone();
        }
    }
    if let Some(d) = &s.generic.default {
        if r.pct(20) {
            return d.clone();
        }
    }
    let ty = if s.extensions.int_or_string {
        if r.pct(50) { "integer" } else { "string" }
    } else {
        s.generic.type_.as_str()
    };
    match ty {
        "object" | "" if !s.properties.is_empty() || ty == "object" => {
            let mut m = Map::new();
            let keep = if depth < 3 { 70 } else { 35 };
            for (k, p) in &s.properties {
                if r.pct(keep) {
                    m.insert(k.clone(), arbitrary(r, Some(p), depth + 1));
                }
            }
            if let Some(ap) = &s.generic.additional_properties {
                for i in 0..r.below(3) {
                    m.insert(
                        format!("k{i}"),
                        arbitrary(r, ap.structural.as_deref(), depth + 1),
                    );
                }
            }
            if r.pct(25) {
                m.insert(format!("unknown{}", r.below(3)), junk(r, depth + 1));
            }
            if s.extensions.embedded_resource || depth == 0 || r.pct(10) {
                if r.pct(80) {
                    let v = if r.pct(85) {
                        json!("g/v1")
                    } else {
                        junk(r, depth)
                    };
                    m.insert("apiVersion".into(), v);
                }
                if r.pct(80) {
                    let v = if r.pct(85) {
                        json!("Kind")
                    } else {
                        junk(r, depth)
                    };
                    m.insert("kind".into(), v);
                }
                if r.pct(80) {
                    m.insert("metadata".into(), metadata(r));
                }
            }
            if r.pct(5) {
                m.insert(String::new(), junk(r, depth + 1));
            }
            // Shuffle a little: swap two keys' positions.
            if m.len() > 1 && r.pct(50) {
                let mut entries: Vec<(String, Value)> = m.into_iter().collect();
                let a = usize::try_from(r.below(entries.len() as u64)).unwrap_or(0);
                let last = entries.len() - 1;
                entries.swap(a, last);
                m = entries.into_iter().collect();
            }
            Value::Object(m)
        }
        "array" => {
            let n = r.below(if depth < 4 { 4 } else { 2 });
            let mut items: Vec<Value> = (0..n)
                .map(|_| arbitrary(r, s.items.as_deref(), depth + 1))
                .collect();
            if !items.is_empty() && r.pct(30) {
                let first = items.first().cloned().unwrap_or(Value::Null);
                items.push(first);
            }
            Value::Array(items)
        }
        "string" => json!(format!("v{}", r.below(4))),
        "integer" => json!(r.below(5)),
        "number" => json!(0.5),
        "boolean" => json!(r.pct(50)),
        _ => junk(r, depth),
    }
}

fn text(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn check_one(name: &str, schema: &Structural, obj: &Value) {
    let indexed = IndexedSchema::new(schema.clone());
    let view = Some(indexed.view());
    let plain = Some(schema);
    for is_root in [false, true] {
        for track in [false, true] {
            // Pruning, then nulls.
            let mut want = obj.clone();
            let want_paths = reference::prune(&mut want, plain, is_root, track);
            let mut got = obj.clone();
            let got_paths = prune(&mut got, plain, is_root, track);
            assert_eq!(
                (text(&got), &got_paths),
                (text(&want), &want_paths),
                "{name}: prune(root={is_root}, track={track}) of {obj}"
            );
            reference::nulls(&mut want, plain);
            let mut fused = obj.clone();
            let fused_paths = prune_and_drop_nulls(&mut fused, view, is_root, track);
            assert_eq!(
                (text(&fused), &fused_paths),
                (text(&want), &want_paths),
                "{name}: prune_and_drop_nulls(root={is_root}, track={track}) of {obj}"
            );
            prune_non_nullable_nulls_without_defaults(&mut got, plain);
            assert_eq!(text(&got), text(&want), "{name}: nulls of {obj}");
            if !is_root {
                // Pruning, nulls and defaulting in one walk.
                let mut all = obj.clone();
                let all_paths = prune_drop_nulls_and_default(&mut all, view, track);
                let mut want_all = want.clone();
                reference::default(&mut want_all, plain);
                assert_eq!(
                    (text(&all), &all_paths),
                    (text(&want_all), &want_paths),
                    "{name}: prune_drop_nulls_and_default(track={track}) of {obj}"
                );
            }
            if !track {
                continue;
            }
            // Coercion, on the pruned object and on the raw one.
            for (what, start) in [("pruned", &want), ("raw", obj)] {
                let mut a = start.clone();
                let ea = reference::coerce(&Path::root(), &mut a, plain, is_root);
                let mut b = start.clone();
                let eb = coerce_value_view(&Path::root(), &mut b, view, is_root);
                let mut c = start.clone();
                let ec = coerce_value(&Path::root(), &mut c, plain, is_root);
                assert_eq!(
                    (&eb, text(&b)),
                    (&ea, text(&a)),
                    "{name}: coerce {what} {start}"
                );
                assert_eq!(
                    (&ec, text(&c)),
                    (&ea, text(&a)),
                    "{name}: coerce {what} {start}"
                );
                // Defaulting.
                let mut da = a.clone();
                reference::default(&mut da, plain);
                let mut db = a.clone();
                default_view(&mut db, view);
                let mut dc = a.clone();
                default(&mut dc, plain);
                assert_eq!(text(&db), text(&da), "{name}: default {what} {a}");
                assert_eq!(text(&dc), text(&da), "{name}: default {what} {a}");
                // Metadata validation and list checks.
                let mut ma = Vec::new();
                reference::validate_meta(&Path::root(), &da, plain, is_root, &mut ma);
                let mut mb = Vec::new();
                validate_meta_view(&Path::root(), &da, view, is_root, &mut mb);
                let mut mc = Vec::new();
                validate_meta(&Path::root(), &da, plain, is_root, &mut mc);
                assert_eq!(mb, ma, "{name}: validate_meta {da}");
                assert_eq!(mc, ma, "{name}: validate_meta {da}");
                let la = validate_list_sets_and_maps(&Path::root(), plain, &da);
                let lb = validate_list_sets_and_maps_view(&Path::root(), view, &da);
                assert_eq!(lb, la, "{name}: list sets and maps {da}");
            }
        }
    }
}

/// `decode_resource` against the server's steps one after the other.
fn check_decode(name: &str, schema: &Structural, obj: &Value) {
    let indexed = IndexedSchema::new(schema.clone());
    let plain = Some(schema);
    for prune_too in [true, false] {
        let mut want = obj.clone();
        let want_paths = if prune_too {
            let p = reference::prune(&mut want, plain, true, true);
            reference::nulls(&mut want, plain);
            p
        } else {
            Vec::new()
        };
        let want_err = reference::coerce(&Path::root(), &mut want, plain, true);
        if want_err.is_none() {
            reference::default(&mut want, plain);
        }
        for (how, view) in [
            ("prepared", Some(indexed.view())),
            ("plain", Some(View::plain(schema))),
        ] {
            let mut got = obj.clone();
            let d = decode_resource(&mut got, view, prune_too);
            assert_eq!(
                (text(&got), &d.pruned, &d.error),
                (text(&want), &want_paths, &want_err),
                "{name}: decode_resource({how}, prune={prune_too}) of {obj}"
            );
        }
    }
}

fn decode_schema(v: &Value) -> Option<Structural> {
    let props = JsonSchemaProps::decode(v, &Path::root(), &mut DecodeCx::default())?;
    Structural::from_props(&props).ok()
}

/// Edge cases the corpus may not have.
fn handmade() -> Vec<Value> {
    vec![
        json!({
            "type": "object",
            "properties": {
                "": {"type": "object", "properties": {"metadata": {"type": "object"}, "a": {"type": "string"}}},
                "free": {"type": "object", "additionalProperties": true},
                "closed": {"type": "object", "additionalProperties": false},
                "m": {"type": "object", "additionalProperties": {"type": "string", "default": "d"}},
                "n": {"type": "object", "additionalProperties": {"type": "string", "nullable": true}},
                "items": {"type": "array", "items": {"type": "integer", "default": 7}},
                "nitems": {"type": "array", "items": {"type": "integer", "nullable": true, "default": 7}},
                "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                        "properties": {"inner": {"type": "object", "properties": {"z": {"type": "string", "default": "z"}}}}},
                "rawlist": {"type": "array", "x-kubernetes-preserve-unknown-fields": true,
                        "items": {"type": "object", "properties": {"q": {"type": "string"}}}},
                "emb": {"type": "object", "x-kubernetes-embedded-resource": true,
                        "x-kubernetes-preserve-unknown-fields": true,
                        "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "dn"}}},
                                       "spec": {"type": "object", "default": {"a": 1}, "properties": {"a": {"type": "integer"}, "b": {"type": "string", "default": "bb"}}}}},
                "embs": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": true,
                        "properties": {"kind": {"type": "string", "default": "K"}, "apiVersion": {"type": "string"}}}},
                "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "lmap": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                         "items": {"type": "object", "properties": {"name": {"type": "string", "default": "x"}, "v": {"type": "string"}}}},
                "nul": {"type": "string", "nullable": true, "default": "nd"},
                "def": {"type": "object", "default": {"x": null}, "properties": {"x": {"type": "string", "default": "xx"}, "y": {"type": "string"}}},
            },
        }),
        json!({
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string", "default": "a"}}}},
        }),
        json!({"type": "object", "additionalProperties": {"type": "object", "properties": {"a": {"type": "string"}}}}),
        json!({
            "type": "object",
            "properties": {
                "apiVersion": {"type": "string", "default": "g/v9"},
                "kind": {"type": "string"},
                "metadata": {"type": "object", "properties": {
                    "name": {"type": "string", "default": "dflt"},
                    "namespace": {"type": "string"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "annotations": {"type": "object", "nullable": true, "additionalProperties": {"type": "string", "default": "a"}},
                }},
                "spec": {"type": "object", "default": {}, "properties": {
                    "a": {"type": "string", "default": "a"},
                    "b": {"type": "array", "items": {"type": "object", "properties": {"c": {"type": "integer", "default": 1}, "n": {"type": "string", "nullable": true}}}},
                    "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"x": {"type": "string", "default": "x"}}}},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"d": {"type": "string", "default": "d"}}},
                    // Defaults the earlier steps would change: only defaulted below.
                    "weird": {"type": "object", "default": {"unk": 1, "s": null, "t": null}, "properties": {
                        "s": {"type": "string"}, "t": {"type": "string", "default": "t"}}},
                    "witems": {"type": "array", "items": {"type": "object", "default": {"unk": 1, "s": null},
                        "properties": {"s": {"type": "string"}, "q": {"type": "string", "default": "q"}}}},
                    "wmap": {"type": "object", "additionalProperties": {"type": "object", "default": {"unk": [null], "s": null},
                        "properties": {"s": {"type": "string"}}}},
                }},
                "status": {"type": "object", "nullable": true, "properties": {"s": {"type": "string", "default": "s"}}},
            },
        }),
        json!({"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string", "default": "q"}}}}),
    ]
}

fn schemas() -> Vec<(String, Structural)> {
    let mut out = Vec::new();
    for (i, v) in handmade().iter().enumerate() {
        out.push((format!("handmade {i}"), decode_schema(v).unwrap()));
    }
    if let Some(dir) = tests::conformance_dir() {
        for file in ["prune.json", "default.json"] {
            let Ok(bytes) = std::fs::read(dir.join("k8s").join(file)) else {
                continue;
            };
            let cases: Vec<Value> = serde_json::from_slice(&bytes).unwrap();
            for c in &cases {
                if let Some(s) = c.pointer("/input/schema").and_then(decode_schema) {
                    out.push((format!("{file} {}", c["id"]), s));
                }
            }
        }
    }
    if let Some(dir) = tests::corpus_dir() {
        for file in tests::files_below(&dir, &["yaml", "yml"]) {
            let bytes = std::fs::read(&file).unwrap();
            let name = file.display().to_string();
            let Ok(docs) = parse_documents(&name, &bytes, &Limits::default()) else {
                continue;
            };
            for doc in docs {
                let Ok((input, _)) = read_input_owned(doc.value) else {
                    continue;
                };
                let Some(crd) = input.crd() else { continue };
                let versions = crd.spec.as_ref().and_then(|s| s.versions.clone());
                for v in versions.unwrap_or_default() {
                    let Some(p) = v.schema.and_then(|s| s.open_api_v3_schema) else {
                        continue;
                    };
                    if let Ok(s) = Structural::from_props(&p) {
                        out.push((format!("{name} {}", v.name.unwrap_or_default()), s));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn prepared_walks_match_the_sequential_algorithms() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let all = schemas();
    assert!(all.len() >= 4);
    let mut objects = 0;
    for (name, s) in &all {
        let n = if name.starts_with("handmade") {
            300
        } else {
            12
        };
        for _ in 0..n {
            let obj = arbitrary(&mut r, Some(s), 0);
            check_one(name, s, &obj);
            check_decode(name, s, &obj);
            objects += 1;
        }
    }
    println!("{} schemas, {objects} objects", all.len());
}

/// The sequential algorithms as first written, kept as the reference.
mod reference {
    use schema_core::model::field::{ErrorList, FieldError, Path};
    use schema_core::model::structural::Structural;
    use schema_core::object::metadata;
    use serde_json::Value;

    const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

    fn is_meta(k: &str) -> bool {
        META_FIELDS.contains(&k)
    }

    fn additional(s: &Structural) -> Option<Option<&Structural>> {
        s.generic
            .additional_properties
            .as_ref()
            .map(|a| a.structural.as_deref())
    }

    pub fn prune(
        obj: &mut Value,
        s: Option<&Structural>,
        is_resource_root: bool,
        track: bool,
    ) -> Vec<String> {
        let mut cx = Cx {
            track,
            parent: String::new(),
            unknown: Vec::new(),
        };
        if is_resource_root {
            let empty = Structural::default();
            prune_value(obj, Some(s.unwrap_or(&empty)), true, &mut cx);
        } else {
            prune_value(obj, s, false, &mut cx);
        }
        cx.unknown.sort();
        cx.unknown
    }

    struct Cx {
        track: bool,
        parent: String,
        unknown: Vec<String>,
    }

    impl Cx {
        fn record(&mut self, k: &str) {
            if self.track {
                if self.parent.is_empty() {
                    self.unknown.push(k.to_string());
                } else {
                    self.unknown.push(format!("{}.{k}", self.parent));
                }
            }
        }

        fn push_key(&mut self, k: &str) -> usize {
            let len = self.parent.len();
            if self.track {
                if !self.parent.is_empty() {
                    self.parent.push('.');
                }
                self.parent.push_str(k);
            }
            len
        }

        fn push_index(&mut self, i: usize) -> usize {
            let len = self.parent.len();
            if self.track {
                self.parent.push('[');
                self.parent.push_str(&i.to_string());
                self.parent.push(']');
            }
            len
        }

        fn pop(&mut self, len: usize) {
            self.parent.truncate(len);
        }
    }

    fn prune_value(x: &mut Value, s: Option<&Structural>, root_embedded: bool, cx: &mut Cx) {
        if let Some(s) = s.filter(|s| s.extensions.preserve_unknown_fields) {
            skip_prune(x, s, root_embedded, cx);
            return;
        }
        match x {
            Value::Object(map) => {
                let Some(s) = s else {
                    let keys: Vec<String> = map.keys().cloned().collect();
                    for k in keys {
                        cx.record(&k);
                    }
                    map.clear();
                    return;
                };
                let top = cx.parent.is_empty();
                let embedded = root_embedded || s.extensions.embedded_resource;
                let mut remove = Vec::new();
                for (k, v) in map.iter_mut() {
                    if embedded && is_meta(k) {
                        continue;
                    }
                    if let Some(prop) = s.properties.get(k) {
                        let len = cx.push_key(k);
                        prune_value(v, Some(prop), false, cx);
                        cx.pop(len);
                    } else if let Some(ap) = additional(s) {
                        let len = cx.push_key(k);
                        prune_value(v, ap, false, cx);
                        cx.pop(len);
                    } else {
                        if !is_meta(k) || !top {
                            cx.record(k);
                        }
                        remove.push(k.clone());
                    }
                }
                for k in remove {
                    map.shift_remove(&k);
                }
            }
            Value::Array(items) => {
                let item_schema = s.and_then(|s| s.items.as_deref());
                for (i, v) in items.iter_mut().enumerate() {
                    let len = cx.push_index(i);
                    prune_value(v, item_schema, false, cx);
                    cx.pop(len);
                }
            }
            _ => {}
        }
    }

    fn skip_prune(x: &mut Value, s: &Structural, root_embedded: bool, cx: &mut Cx) {
        match x {
            Value::Object(map) => {
                let embedded = root_embedded || s.extensions.embedded_resource;
                for (k, v) in map.iter_mut() {
                    if embedded && is_meta(k) {
                        continue;
                    }
                    if let Some(prop) = s.properties.get(k) {
                        let len = cx.push_key(k);
                        prune_value(v, Some(prop), false, cx);
                        cx.pop(len);
                    } else if let Some(ap) = additional(s) {
                        let len = cx.push_key(k);
                        prune_value(v, ap, false, cx);
                        cx.pop(len);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = s.items.as_deref() {
                    for (i, v) in items.iter_mut().enumerate() {
                        let len = cx.push_index(i);
                        skip_prune(v, item_schema, false, cx);
                        cx.pop(len);
                    }
                }
            }
            _ => {}
        }
    }

    pub fn default(x: &mut Value, s: Option<&Structural>) {
        let Some(s) = s else { return };
        match x {
            Value::Object(map) => {
                for (k, prop) in &s.properties {
                    let Some(d) = &prop.generic.default else {
                        continue;
                    };
                    let missing = match map.get(k) {
                        None => true,
                        Some(Value::Null) => !prop.generic.nullable,
                        Some(_) => false,
                    };
                    if missing {
                        map.insert(k.clone(), d.clone());
                    }
                }
                for (k, v) in map.iter_mut() {
                    if let Some(prop) = s.properties.get(k) {
                        default(v, Some(prop));
                    } else if let Some(ap) = additional(s) {
                        if v.is_null() {
                            if let Some(ap) = ap.filter(|a| !a.generic.nullable) {
                                *v = ap.generic.default.clone().unwrap_or(Value::Null);
                            }
                        }
                        default(v, ap);
                    }
                }
            }
            Value::Array(items) => {
                let item_schema = s.items.as_deref();
                for v in items.iter_mut() {
                    if v.is_null() {
                        if let Some(is) = item_schema.filter(|i| !i.generic.nullable) {
                            *v = is.generic.default.clone().unwrap_or(Value::Null);
                        }
                    }
                    default(v, item_schema);
                }
            }
            _ => {}
        }
    }

    pub fn nulls(x: &mut Value, s: Option<&Structural>) {
        let Some(s) = s else { return };
        match x {
            Value::Object(map) => {
                map.retain(|k, v| {
                    let schema = s.properties.get(k).or_else(|| additional(s).flatten());
                    !(v.is_null()
                        && schema
                            .is_some_and(|p| !p.generic.nullable && p.generic.default.is_none()))
                });
                for (k, v) in map.iter_mut() {
                    let schema = match s.properties.get(k) {
                        Some(p) => Some(p),
                        None => additional(s).flatten(),
                    };
                    nulls(v, schema);
                }
            }
            Value::Array(items) => {
                for v in items.iter_mut() {
                    nulls(v, s.items.as_deref());
                }
            }
            _ => {}
        }
    }

    fn embedded(s: &Structural, forced: bool) -> bool {
        forced || s.extensions.embedded_resource
    }

    pub fn coerce(
        p: &Path,
        x: &mut Value,
        s: Option<&Structural>,
        is_resource_root: bool,
    ) -> Option<FieldError> {
        let empty = Structural::default();
        let s = if is_resource_root {
            Some(s.unwrap_or(&empty))
        } else {
            s
        };
        coerce_walk(p, x, s, is_resource_root)
    }

    fn coerce_walk(
        p: &Path,
        x: &mut Value,
        s: Option<&Structural>,
        forced: bool,
    ) -> Option<FieldError> {
        let s = s?;
        match x {
            Value::Object(map) => {
                if embedded(s, forced) {
                    if let Some(e) = metadata::coerce_embedded_resource(p, map, false) {
                        return Some(e);
                    }
                }
                for (k, v) in map.iter_mut() {
                    let e = if let Some(prop) = s.properties.get(k) {
                        coerce_walk(&p.child(k.as_str()), v, Some(prop), false)
                    } else if let Some(ap) = &s.generic.additional_properties {
                        coerce_walk(&p.key(k.as_str()), v, ap.structural.as_deref(), false)
                    } else {
                        None
                    };
                    if e.is_some() {
                        return e;
                    }
                }
                None
            }
            Value::Array(items) => {
                for (i, v) in items.iter_mut().enumerate() {
                    if let Some(e) = coerce_walk(&p.index(i), v, s.items.as_deref(), false) {
                        return Some(e);
                    }
                }
                None
            }
            _ => None,
        }
    }

    pub fn validate_meta(
        p: &Path,
        x: &Value,
        s: Option<&Structural>,
        is_resource_root: bool,
        errs: &mut ErrorList,
    ) {
        let empty = Structural::default();
        let s = if is_resource_root {
            Some(s.unwrap_or(&empty))
        } else {
            s
        };
        validate_meta_walk(p, x, s, is_resource_root, errs);
    }

    fn validate_meta_walk(
        p: &Path,
        x: &Value,
        s: Option<&Structural>,
        forced: bool,
        errs: &mut ErrorList,
    ) {
        let Some(s) = s else { return };
        match x {
            Value::Object(map) => {
                if embedded(s, forced) {
                    errs.extend(metadata::validate_embedded_resource(p, map));
                }
                for (k, v) in map {
                    if let Some(prop) = s.properties.get(k) {
                        validate_meta_walk(&p.child(k.as_str()), v, Some(prop), false, errs);
                    } else if let Some(ap) = &s.generic.additional_properties {
                        validate_meta_walk(
                            &p.key(k.as_str()),
                            v,
                            ap.structural.as_deref(),
                            false,
                            errs,
                        );
                    }
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    validate_meta_walk(&p.index(i), v, s.items.as_deref(), false, errs);
                }
            }
            _ => {}
        }
    }
}
