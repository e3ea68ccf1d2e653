// Validates Kubernetes manifests against the Kubernetes API schema, offline: the npm package
// kubernetes-models (the OpenAPI schema of current Kubernetes, compiled to validators) checks
// types, enums and required fields; its type declarations (.d.ts), read here, name every field
// each object may have, so a misspelt or misplaced field is an error too (the validators let
// unknown fields through, and the API server would drop them silently).
//   usage: node ci/k8s/validate.mjs NODE_MODULES_DIR MANIFEST.yaml...
// Prints one line per object ("ok CronJob cuconform-nightly") or per error
// ("FILE: doc 2 CronJob x: spec.jobTemplate...: unknown field 'resourcez'"); exit 1 on any error,
// 2 on bad usage.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
  console.error("usage: node validate.mjs NODE_MODULES_DIR MANIFEST.yaml...");
  process.exit(2);
}
const load = (rel) => import(pathToFileURL(path.join(modules, rel)).href);
const { parseAllDocuments } = await load("yaml/dist/index.js");

// interface declaration file -> { props: name -> type text, imports: type name -> file }
const declCache = new Map();
function readDecl(file) {
  if (declCache.has(file)) return declCache.get(file);
  const text = fs.readFileSync(file, "utf8");
  const imports = new Map();
  for (const m of text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
    let target = m[2];
    target = target.startsWith(".") ? path.resolve(path.dirname(file), target) : path.join(modules, target);
    target = target.replace(/\.js$/, "") + ".d.ts";
    for (const name of m[1].split(",")) imports.set(name.trim(), target);
  }
  const body = text.match(/^export interface \w+(?: extends ([\w, ]+))? \{\n([\s\S]*?)^\}/m);
  const props = new Map();
  if (body) {
    if (body[1] && body[1].includes("TypeMeta")) props.set("apiVersion", "string").set("kind", "string");
    for (const m of body[2].matchAll(/^ {4}"([^"]+)"\??: (.*)$/gm)) props.set(m[1], m[2].replace(/;$/, ""));
  }
  const d = { props, imports, found: Boolean(body) };
  declCache.set(file, d);
  return d;
}

// Unknown fields of `value` as an instance of the interface declared in `file`.
function unknownFields(value, file, where, errors) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const d = readDecl(file);
  if (!d.found) return;
  for (const [key, v] of Object.entries(value)) {
    const type = d.props.get(key);
    const at = where ? `${where}.${key}` : key;
    if (type === undefined) {
      errors.push(`${at}: unknown field '${key}' (${path.basename(file, ".d.ts")} has: ${[...d.props.keys()].join(", ")})`);
      continue;
    }
    const array = type.match(/^Array<(\w+)>$/);
    const name = array ? array[1] : type;
    const target = d.imports.get(name);
    if (!target) continue;  // a primitive, a map, an enum, IntOrString...
    if (array && Array.isArray(v)) v.forEach((e, i) => unknownFields(e, target, `${at}[${i}]`, errors));
    else unknownFields(v, target, at, errors);
  }
}

let bad = 0;
for (const file of files) {
  const docs = parseAllDocuments(fs.readFileSync(file, "utf8"));
  let n = 0;
  for (const doc of docs) {
    n++;
    const say = (msg) => {
      console.log(`${file}: doc ${n}: ${msg}`);
      bad++;
    };
    if (doc.errors.length) {
      say(`YAML: ${doc.errors[0].message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) continue;
    const { apiVersion, kind } = obj;
    const name = obj.metadata?.name ?? "?";
    if (typeof apiVersion !== "string" || typeof kind !== "string") {
      say("no apiVersion or kind");
      continue;
    }
    const dir = path.join(modules, "kubernetes-models", apiVersion);
    const decl = path.join(dir, `${kind}.d.ts`);
    if (!fs.existsSync(decl)) {
      say(`${apiVersion} ${kind}: not a Kubernetes API type`);
      continue;
    }
    const Model = (await load(path.join("kubernetes-models", apiVersion, "index.js")))[kind];
    const errors = [];
    try {
      new Model(obj).validate();
    } catch (e) {
      errors.push(String(e.message ?? e).replace(/\n/g, "; "));
    }
    unknownFields(obj, decl, "", errors);
    if (errors.length) for (const e of errors) say(`${kind} ${name}: ${e}`);
    else console.log(`ok ${file}: ${kind} ${name}`);
  }
}
process.exit(bad ? 1 : 0);
