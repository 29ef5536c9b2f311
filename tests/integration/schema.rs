//! The results JSON against its schema (`schema/results.schema.json`): a run with a theorem and
//! its control, an erratum with its certificate, and a statistical claim validates; a document
//! with a verdict outside the schema's set does not (the validator can fail); a file of a newer
//! major version is refused with one line, and a file from before the version field reads.
//!
//! The validator is the subset of JSON Schema (2020-12) the schema uses: `type`, `required`,
//! `properties`, `items`, `enum`, `const`, `$ref` into `$defs`, `oneOf`, `minimum`, `minLength`
//! (annotations ignored); a keyword outside the subset fails the test, so the schema cannot use
//! one that nothing here checks. The Python tests validate with the `jsonschema` package.

use serde_json::Value;
use ssmcheck::claim::{run_claims, Budget, RunConfig, RunResults, SCHEMA_VERSION};
use ssmcheck::mc::CpuBackend;

fn schema() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/results.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("the schema names an unknown type '{other}'"),
    }
}

/// Every violation of `schema` by `v`, as `path: why`.
fn violations(root: &Value, schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    if schema == &Value::Bool(true) {
        return;
    }
    let s = schema.as_object().expect("a schema is an object or true");
    for (key, want) in s {
        match key.as_str() {
            "$schema" | "$id" | "title" | "description" | "$comment" | "$defs" => {}
            "$ref" => {
                let name = want.as_str().and_then(|r| r.strip_prefix("#/$defs/")).expect("a local $ref");
                violations(root, &root["$defs"][name], v, path, out);
            }
            "type" => {
                let types: Vec<&str> = match want {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
                    _ => panic!("type is a string or a list"),
                };
                if !types.iter().any(|t| type_matches(t, v)) {
                    out.push(format!("{path}: {v} is not of type {want}"));
                }
            }
            "required" => {
                for field in want.as_array().unwrap() {
                    let field = field.as_str().unwrap();
                    if v.is_object() && v.get(field).is_none() {
                        out.push(format!("{path}: '{field}' is required"));
                    }
                }
            }
            "properties" => {
                if let Some(obj) = v.as_object() {
                    for (field, sub) in want.as_object().unwrap() {
                        if let Some(x) = obj.get(field) {
                            violations(root, sub, x, &format!("{path}/{field}"), out);
                        }
                    }
                }
            }
            "items" => {
                for (i, x) in v.as_array().into_iter().flatten().enumerate() {
                    violations(root, want, x, &format!("{path}[{i}]"), out);
                }
            }
            "enum" => {
                if !want.as_array().unwrap().contains(v) {
                    out.push(format!("{path}: {v} is not one of {want}"));
                }
            }
            "const" => {
                if want != v {
                    out.push(format!("{path}: {v} is not {want}"));
                }
            }
            "oneOf" => {
                let passing = want.as_array().unwrap().iter().filter(|sub| {
                    let mut o = vec![];
                    violations(root, sub, v, path, &mut o);
                    o.is_empty()
                });
                if passing.count() != 1 {
                    out.push(format!("{path}: {v} matches not exactly one of {want}"));
                }
            }
            "minimum" => {
                if v.as_f64().is_some_and(|x| x < want.as_f64().unwrap()) {
                    out.push(format!("{path}: {v} is below {want}"));
                }
            }
            "minLength" => {
                if v.as_str().is_some_and(|x| (x.chars().count() as u64) < want.as_u64().unwrap()) {
                    out.push(format!("{path}: {v} is shorter than {want}"));
                }
            }
            other => panic!("the schema uses '{other}', a keyword this validator does not check"),
        }
    }
}

fn validate(doc: &Value) -> Vec<String> {
    let root = schema();
    let mut out = vec![];
    violations(&root, &root, doc, "", &mut out);
    out
}

#[test]
fn a_run_validates_against_the_schema_and_a_foreign_verdict_does_not() {
    let registry = ssmcheck::claims::registry();
    let ids: Vec<String> = ["004.cor1.printed", "004.cor1.normal", "004.thm4"].map(String::from).to_vec();
    let claims = registry.select(&ids, None).unwrap();
    let cfg = RunConfig { seed: 1, budget: Budget::Quick, backend: &CpuBackend, progress: false, parallel: true };
    let results = run_claims(&claims, &cfg);
    let doc = serde_json::to_value(&results).unwrap();
    assert_eq!(doc["schema_version"], SCHEMA_VERSION);
    assert!(doc["claims"].as_array().unwrap().iter().any(|c| c["control"].is_object()), "a control is in the document");
    assert!(doc["claims"].as_array().unwrap().iter().any(|c| c["certificate"].is_object()), "a certificate is in the document");
    assert!(doc["claims"].as_array().unwrap().iter().all(|c| c["seconds"].as_f64().is_some_and(|s| s >= 0.0)), "every claim has its time");
    assert_eq!(validate(&doc), Vec::<String>::new());
    let mut negative = doc.clone();
    negative["claims"][0]["seconds"] = (-1.0).into();
    assert_eq!(validate(&negative).len(), 1, "a negative time is refused");
    let mut foreign = doc.clone();
    foreign["claims"][0]["verdict"] = "maybe".into();
    foreign["claims"][1].as_object_mut().unwrap().remove("agrees");
    let errors = validate(&foreign);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("/claims[0]/verdict") && errors[1].contains("'agrees' is required"), "{errors:?}");
}

#[test]
fn a_newer_major_version_is_refused_and_a_file_without_one_reads() {
    let dir = tempfile::tempdir().unwrap();
    let results = RunResults::new(1, Budget::Quick, "cpu", vec![]);
    let mut doc = serde_json::to_value(&results).unwrap();
    let path = dir.path().join("r.json");
    doc["schema_version"] = "2.0".into();
    std::fs::write(&path, doc.to_string()).unwrap();
    let err = ssmcheck::report::read_results(&path).unwrap_err().to_string();
    assert!(err.contains("r.json") && err.contains("2.0") && err.contains("upgrade ssmcheck") && !err.contains('\n'), "{err}");
    doc["schema_version"] = "1.7".into();
    std::fs::write(&path, doc.to_string()).unwrap();
    assert!(ssmcheck::report::read_results(&path).is_ok(), "a newer minor version reads");
    doc.as_object_mut().unwrap().remove("schema_version");
    std::fs::write(&path, doc.to_string()).unwrap();
    assert_eq!(ssmcheck::report::read_results(&path).unwrap().schema_version, "1.0");
    assert!(RunResults::check_schema("one").unwrap_err().contains("MAJOR.MINOR"));
}
