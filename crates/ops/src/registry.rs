//! The operation registry: every API operation declared once, with everything REST, OpenAPI
//! and MCP need to know about it.

use crate::input::{InputPart, RawInput, check_part, parse_part};
use crate::{App, Area, Caller, Context, OpError, RateClass};
use accounts::Scope;
use async_trait::async_trait;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::{Arc, LazyLock};

/// HTTP methods the API uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpMethod {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl HttpMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }
}

/// What the registry knows about an operation besides its types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperationSpec {
    /// The operationId, also the MCP tool name.
    pub id: &'static str,
    pub method: HttpMethod,
    /// Path under the API prefix (`/categories/{slug}`); parameters in braces.
    pub path: &'static str,
    /// The scope a caller needs; `None` for public operations.
    pub scope: Option<Scope>,
    /// Accepts `Idempotency-Key` (marked I in the spec).
    pub idempotent: bool,
    /// The status of a success (200 or 201).
    pub success_status: u16,
    /// One line for lists of operations.
    pub summary: &'static str,
    /// What the operation does, for OpenAPI and the MCP tool description.
    pub description: &'static str,
    /// The OpenAPI tag it is grouped under.
    pub tag: &'static str,
    /// Answers 404 for an unknown identifier in the path.
    pub not_found: bool,
    /// Deletes something (MCP `destructiveHint`).
    pub destructive: bool,
    /// The rate limit it counts against (`x-rate-limit` in the OpenAPI document).
    pub rate: RateClass,
    /// The largest request body it takes, in bytes (400 beyond).
    pub max_body_bytes: usize,
}

impl OperationSpec {
    /// The defaults of a public read: `GET`, no scope, not idempotent-keyed, 200, no 404.
    /// Operations spell out what differs: `OperationSpec { id, path, ..OperationSpec::READ }`.
    pub const READ: OperationSpec = OperationSpec {
        id: "",
        method: HttpMethod::Get,
        path: "",
        scope: None,
        idempotent: false,
        success_status: 200,
        summary: "",
        description: "",
        tag: "",
        not_found: false,
        destructive: false,
        rate: RateClass::Read,
        max_body_bytes: Self::MAX_BODY_BYTES,
    };

    /// The body limit of every operation that does not set its own: 1 MiB.
    pub const MAX_BODY_BYTES: usize = 1024 * 1024;

    /// Reads change nothing (MCP `readOnlyHint`).
    pub fn read_only(&self) -> bool {
        self.method == HttpMethod::Get
    }
}

/// The typed input of an operation.
#[derive(Debug)]
pub struct Input<P, Q, B> {
    pub path: P,
    pub query: Q,
    pub body: B,
}

/// An operation of the API, declared once.
#[async_trait]
pub trait Operation: Send + Sync + 'static {
    type Path: InputPart;
    type Query: InputPart;
    type Body: InputPart;
    type Output: Serialize + JsonSchema + Send;
    /// The area of the application the operation works in (`Context`).
    type Area: Area;

    const SPEC: OperationSpec;

    /// Runs the use case. Scope and input validation have already passed.
    async fn run(
        &self,
        area: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<Self::Path, Self::Query, Self::Body>,
    ) -> Result<Self::Output, OpError>;

    /// What a public read does besides answering, when its answer comes from the answer cache
    /// instead of `run` (`get_listing` counts a view).
    fn answered_from_cache(&self, _area: Context<'_, Self::Area>, _caller: &Caller, _input: &RawInput) {}

    /// What of a successful answer `Idempotency-Key` keeps for replays. An answer that carries a
    /// secret (a checkout link's token) keeps it out, since secrets are stored hashed only.
    fn answer_to_store(body: &Value) -> Value {
        body.clone()
    }

    /// A replay's answer from what was kept; an operation that kept a secret out issues a new one.
    async fn replay(&self, _area: Context<'_, Self::Area>, _caller: &Caller, stored: Value) -> Result<Value, OpError> {
        Ok(stored)
    }
}

/// The JSON Schemas of an operation's parts (`None` where the part does not exist).
#[derive(Debug, Clone)]
pub struct PartSchemas {
    pub path: Option<Schema>,
    pub query: Option<Schema>,
    pub body: Option<Schema>,
    pub output: Schema,
}

/// An operation with its types erased, as transports hold it.
#[async_trait]
pub trait DynOperation: Send + Sync {
    fn spec(&self) -> &'static OperationSpec;

    /// Self-contained schemas of the parts: inputs from `inputs` (a deserialize contract),
    /// the output from `outputs` (a serialize contract). The generators' settings decide where
    /// shared definitions go.
    fn schemas(&self, inputs: &mut SchemaGenerator, outputs: &mut SchemaGenerator) -> PartSchemas;

    /// Checks the caller's scope, parses and validates the input, runs the use case and returns
    /// its output as JSON text, written straight from the typed output: building a JSON value
    /// first (a map per object, every key hashed) cost a week of 1,900 launches a quarter of
    /// its time.
    async fn call(&self, app: &App, caller: &Caller, raw: RawInput) -> Result<Vec<u8>, OpError>;

    /// `Operation::answered_from_cache`.
    fn answered_from_cache(&self, app: &App, caller: &Caller, input: &RawInput);

    /// `Operation::answer_to_store`.
    fn answer_to_store(&self, body: &Value) -> Value;

    /// `Operation::replay`.
    async fn replay(&self, app: &App, caller: &Caller, stored: Value) -> Result<Value, OpError>;
}

fn part_schema<T: InputPart>(generator: &mut SchemaGenerator) -> Option<Schema> {
    T::PRESENT.then(|| generator.root_schema_for::<T>())
}

/// The scope check every transport shares: 401 without a principal, 403 without the scope.
pub(crate) fn authorize(spec: &OperationSpec, caller: &Caller) -> Result<(), OpError> {
    let Some(scope) = spec.scope else {
        return Ok(());
    };
    let Some(principal) = &caller.principal else {
        return Err(OpError::Unauthorized { credential_sent: false, detail: format!("{} needs a signed-in caller", spec.id) });
    };
    if principal.has_scope(scope) { Ok(()) } else { Err(OpError::InsufficientScope { scope }) }
}

/// Runs an operation and keeps its typed output: the same scope check, parsing and validation
/// as `DynOperation::call`. The site's pages use it, so a page and its API twin run one use case
/// on one input and can never disagree.
pub async fn run_typed<T: Operation>(op: &T, app: &App, caller: &Caller, raw: RawInput) -> Result<T::Output, OpError> {
    authorize(&T::SPEC, caller)?;
    let mut errors = Vec::new();
    let path = parse_part::<T::Path>(Value::Object(raw.path), &mut errors);
    let query = parse_part::<T::Query>(Value::Object(raw.query), &mut errors);
    let body = match raw.body {
        Some(body) if !T::Body::PRESENT => {
            let empty = body.is_null() || body.as_object().is_some_and(Map::is_empty);
            if !empty {
                errors.push(kernel::FieldError::new("body", "this operation takes no request body"));
            }
            parse_part::<T::Body>(Value::Object(Map::new()), &mut errors)
        }
        Some(body) => parse_part::<T::Body>(body, &mut errors),
        // An absent body reads as `{}`: optional bodies then work, required keys are named.
        None => parse_part::<T::Body>(Value::Object(Map::new()), &mut errors),
    };
    let (Some(path), Some(query), Some(body), true) = (path, query, body, errors.is_empty()) else {
        return Err(OpError::Validation(errors));
    };
    op.run(Context::of(app), caller, Input { path, query, body }).await
}

/// Runs an operation on input its caller holds typed already (a page's own ids and choices),
/// with the same scope check and validation as `run_typed` but no round through text.
pub async fn run_input<T: Operation>(
    op: &T,
    app: &App,
    caller: &Caller,
    input: Input<T::Path, T::Query, T::Body>,
) -> Result<T::Output, OpError> {
    authorize(&T::SPEC, caller)?;
    let mut errors = Vec::new();
    let checked = [check_part(&input.path, &mut errors), check_part(&input.query, &mut errors), check_part(&input.body, &mut errors)];
    if checked.contains(&false) {
        return Err(OpError::Validation(errors));
    }
    op.run(Context::of(app), caller, input).await
}

#[async_trait]
impl<T: Operation> DynOperation for T {
    fn spec(&self) -> &'static OperationSpec {
        &T::SPEC
    }

    fn schemas(&self, inputs: &mut SchemaGenerator, outputs: &mut SchemaGenerator) -> PartSchemas {
        PartSchemas {
            path: part_schema::<T::Path>(inputs),
            query: part_schema::<T::Query>(inputs),
            body: part_schema::<T::Body>(inputs),
            output: outputs.root_schema_for::<T::Output>(),
        }
    }

    async fn call(&self, app: &App, caller: &Caller, raw: RawInput) -> Result<Vec<u8>, OpError> {
        let output = run_typed(self, app, caller, raw).await?;
        serde_json::to_vec(&output).map_err(OpError::internal)
    }

    fn answered_from_cache(&self, app: &App, caller: &Caller, input: &RawInput) {
        Operation::answered_from_cache(self, Context::of(app), caller, input);
    }

    fn answer_to_store(&self, body: &Value) -> Value {
        T::answer_to_store(body)
    }

    async fn replay(&self, app: &App, caller: &Caller, stored: Value) -> Result<Value, OpError> {
        Operation::replay(self, Context::of(app), caller, stored).await
    }
}

static REGISTRY: LazyLock<Vec<Arc<dyn DynOperation>>> = LazyLock::new(|| {
    use crate::operations::*;
    vec![
        Arc::new(site::GetSiteInfo),
        Arc::new(search::SearchListings),
        Arc::new(listing::GetListing),
        Arc::new(compare::GetAlternatives),
        Arc::new(compare::CompareListings),
        Arc::new(categories::ListCategories),
        Arc::new(categories::GetCategory),
        Arc::new(launches::GetLaunchWeek),
        Arc::new(feeds::ListLaunches),
        Arc::new(rankings::GetLeaderboard),
        Arc::new(founders::ListFounders),
        Arc::new(founders::GetFounder),
        Arc::new(blog::ListBlogPosts),
        Arc::new(blog::GetBlogPost),
        Arc::new(rankings::ListAwards),
        Arc::new(badges::GetBadges),
        Arc::new(content::ListInterviewQuestions),
        Arc::new(catalog::ListProducts),
        Arc::new(account::GetAccount),
        Arc::new(drafts::SubmitListing),
        Arc::new(drafts::ListMyDrafts),
        Arc::new(drafts::GetDraft),
        Arc::new(drafts::UpdateDraft),
        Arc::new(drafts::InviteCofounder),
        Arc::new(drafts::SubmitDraft),
        Arc::new(owner::ListMyListings),
        Arc::new(owner::GetMyListing),
        Arc::new(owner::UpdateMyListing),
        Arc::new(owner::PostListingUpdate),
        Arc::new(owner::AddMilestone),
        Arc::new(owner::DeleteMilestone),
        Arc::new(owner::SetFounderStory),
        Arc::new(owner::AnswerInterview),
        Arc::new(owner::ChooseFreeListing),
        Arc::new(claims::ClaimListing),
        Arc::new(claims::ListMyClaims),
        Arc::new(claims::VerifyClaim),
        Arc::new(orders::QuoteOrder),
        Arc::new(orders::CreateCheckout),
        Arc::new(orders::ListMyOrders),
        Arc::new(orders::GetOrder),
        // Ours, beyond the spec's tables (`tests/data/our-operations.tsv`).
        Arc::new(media::UploadImage),
        Arc::new(owner::SetFounderAvatar),
    ]
});

/// Every operation, in a stable order (the order of the spec's tables).
pub fn registry() -> &'static [Arc<dyn DynOperation>] {
    &REGISTRY
}

/// The operation with this operationId.
pub fn find(operation_id: &str) -> Option<&'static Arc<dyn DynOperation>> {
    REGISTRY.iter().find(|op| op.spec().id == operation_id)
}
