//! Tools from the operation registry: one per operation, same name, merged input schema, and
//! `tools/call` through `http_edge::Edge::execute`.

use ops::{App, DynOperation, OpError, RawInput};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListPromptsRequestMethod, ListPromptsResult,
    ListResourceTemplatesRequestMethod, ListResourceTemplatesResult, ListResourcesRequestMethod, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The tool argument that carries an `Idempotency-Key` (operations marked I only).
pub const IDEMPOTENCY_ARGUMENT: &str = "idempotency_key";

/// One operation as a tool.
pub struct ToolEntry {
    pub op: Arc<dyn DynOperation>,
    pub tool: Tool,
    path_params: Vec<String>,
    query_params: Vec<String>,
    has_body: bool,
}

fn properties(schema: &Option<schemars::Schema>) -> (Map<String, Value>, Vec<Value>, Map<String, Value>) {
    let Some(schema) = schema else { return (Map::new(), Vec::new(), Map::new()) };
    let value = schema.as_value();
    let props = value.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let required = value.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    let defs = value.get("$defs").and_then(Value::as_object).cloned().unwrap_or_default();
    (props, required, defs)
}

/// Builds the tool of an operation: path, query and body properties in one object schema.
pub fn tool_entry(op: Arc<dyn DynOperation>) -> ToolEntry {
    let mut inputs = SchemaSettings::draft2020_12().into_generator();
    let mut outputs = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let schemas = op.schemas(&mut inputs, &mut outputs);
    let spec = op.spec();
    let mut merged = Map::new();
    let mut required = Vec::new();
    let mut defs = Map::new();
    let mut names = |schema: &Option<schemars::Schema>, merged: &mut Map<String, Value>| {
        let (props, req, more_defs) = properties(schema);
        let names: Vec<String> = props.keys().cloned().collect();
        merged.extend(props);
        required.extend(req);
        defs.extend(more_defs);
        names
    };
    let path_params = names(&schemas.path, &mut merged);
    let query_params = names(&schemas.query, &mut merged);
    let _ = names(&schemas.body, &mut merged);
    if spec.idempotent {
        // REST carries the key in a header; a tool carries it as an argument.
        merged.insert(
            IDEMPOTENCY_ARGUMENT.into(),
            json!({"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7E]+$",
                   "description": "Optional Idempotency-Key: a retry with the same key and arguments returns the first answer (24 hours) instead of running again."}),
        );
    }
    let mut input = json!({"type": "object", "properties": merged, "additionalProperties": false});
    if !required.is_empty() {
        input["required"] = Value::Array(required);
    }
    if !defs.is_empty() {
        input["$defs"] = Value::Object(defs);
    }
    input["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let mut output = schemas.output.as_value().clone();
    // MCP wants an object schema for structured content; every operation returns an object.
    if output.get("type").is_none() {
        output["type"] = json!("object");
    }
    let as_object = |value: Value| Arc::new(value.as_object().cloned().unwrap_or_default());
    let annotations = ToolAnnotations::new()
        .read_only(spec.read_only())
        .destructive(spec.destructive)
        .idempotent(spec.read_only() || spec.idempotent)
        .open_world(false);
    let mut description = spec.description.to_owned();
    if let Some(scope) = spec.scope {
        description.push_str(&format!(" Needs the scope {scope}."));
    }
    let tool = Tool::new(spec.id, description, as_object(input))
        .with_title(spec.summary)
        .with_raw_output_schema(as_object(output))
        .with_annotations(annotations);
    ToolEntry { op, tool, path_params, query_params, has_body: schemas.body.is_some() }
}

impl ToolEntry {
    /// Splits tool arguments back into the operation's path, query and body.
    fn split(&self, arguments: Map<String, Value>) -> Result<RawInput, OpError> {
        let mut raw = RawInput::default();
        let mut body = Map::new();
        let mut unknown = Vec::new();
        for (key, value) in arguments {
            if self.path_params.contains(&key) {
                raw.path.insert(key, value);
            } else if self.query_params.contains(&key) {
                raw.query.insert(key, value);
            } else if self.has_body {
                body.insert(key, value);
            } else {
                unknown.push(kernel::FieldError::new(key, "is not an argument of this tool"));
            }
        }
        if !unknown.is_empty() {
            return Err(OpError::Validation(unknown));
        }
        raw.body = self.has_body.then_some(Value::Object(body));
        Ok(raw)
    }
}

/// The problem details of an error, as a tool error carries them (the body REST sends).
pub fn problem(error: &OpError) -> Value {
    serde_json::to_value(ops::Problem::of(error)).unwrap_or_default()
}

/// The MCP server: the registry's operations as tools.
#[derive(Clone)]
pub struct ToolServer {
    app: App,
    edge: http_edge::Edge,
    tools: Arc<Vec<ToolEntry>>,
    name: String,
}

impl ToolServer {
    pub fn new(app: App, edge: http_edge::Edge, tools: Arc<Vec<ToolEntry>>) -> Self {
        let name = app.site.name.clone();
        Self { app, edge, tools, name }
    }

    fn entry(&self, name: &str) -> Option<&ToolEntry> {
        self.tools.iter().find(|entry| entry.op.spec().id == name)
    }
}

/// Every registry operation as a tool, in registry order.
pub fn tools() -> Arc<Vec<ToolEntry>> {
    Arc::new(ops::registry().iter().cloned().map(tool_entry).collect())
}

impl ServerHandler for ToolServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(self.name.clone(), env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Tools of a product-launch directory: public reads need no sign-in; tools that need the account say which scope. \
                 People vote only on the site. Checkout happens on the site's checkout page: never ask for card details.",
            )
    }

    async fn list_tools(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.iter().map(|entry| entry.tool.clone()).collect()))
    }

    // Prompts and resources are not offered: say so (method not found) instead of answering
    // with empty lists, which would read as support that was never declared.
    async fn list_prompts(&self, _: Option<PaginatedRequestParams>, _: RequestContext<RoleServer>) -> Result<ListPromptsResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListResourcesRequestMethod>())
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListResourceTemplatesRequestMethod>())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.entry(name).map(|entry| entry.tool.clone())
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        let Some(entry) = self.entry(&request.name) else {
            return Err(ErrorData::invalid_params(format!("no tool named {}", request.name), None));
        };
        // The guard authenticated every tool call before the MCP layer.
        let caller = rmcp_actix_web::transport::on_request_extensions(&context.extensions)
            .and_then(|extensions| extensions.get::<ops::Caller>())
            .cloned()
            .ok_or_else(|| ErrorData::internal_error("the request reached the tool without its caller", None))?;
        let outcome = async {
            let mut arguments = request.arguments.unwrap_or_default();
            let key = match arguments.remove(IDEMPOTENCY_ARGUMENT) {
                Some(Value::String(key)) if entry.op.spec().idempotent => Some(key),
                Some(_) if entry.op.spec().idempotent => {
                    return Err(OpError::field(IDEMPOTENCY_ARGUMENT, "must be 1 to 255 visible ASCII characters"));
                }
                Some(other) => {
                    // Not an argument of this tool: reported like any unknown argument.
                    arguments.insert(IDEMPOTENCY_ARGUMENT.into(), other);
                    None
                }
                None => None,
            };
            let raw = entry.split(arguments)?;
            self.edge.execute(&entry.op, &self.app, &caller, raw, key.as_deref()).await?.body.into_value()
        }
        .await;
        Ok(match outcome {
            Ok(body) => CallToolResult::structured(body),
            Err(error) => CallToolResult::structured_error(problem(&error)),
        }
        .into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_error_says_when_to_retry() {
        // No headers in a tool result: the problem in the body carries the wait.
        let limited = problem(&OpError::RateLimited { retry_after: 30 });
        assert_eq!(
            (limited["status"].as_u64(), limited["code"].as_str(), limited["retry_after"].as_u64()),
            (Some(429), Some("rate_limited"), Some(30))
        );
        let conflict = problem(&OpError::Conflict { detail: "the draft is being written".into(), retry_after: None });
        assert_eq!((conflict["status"].as_u64(), conflict["code"].as_str()), (Some(409), Some("conflict")));
        assert!(conflict.get("retry_after").is_none());
    }
}
