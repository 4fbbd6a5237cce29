package otel

import "go.opentelemetry.io/otel/attribute"

// The attributes this package records. Names under nl2sql. are its own;
// the others are OpenTelemetry's semantic conventions (db.*, gen_ai.*,
// error.type).
const (
	// The request (span nl2sql.ask) and its metrics.
	KeyScope      = attribute.Key("nl2sql.scope")      // the request's scope (schema), "" not recorded
	KeyQuestion   = attribute.Key("nl2sql.question")   // only WithQuestion(true)
	KeyStatus     = attribute.Key("nl2sql.status")     // answered, uncertain, abstained, error
	KeyConfidence = attribute.Key("nl2sql.confidence") // the answer's calibrated confidence
	KeyCandidates = attribute.Key("nl2sql.candidates") // candidates considered
	KeyValid      = attribute.Key("nl2sql.candidates.ok")
	KeyAttempts   = attribute.Key("nl2sql.attempts") // model calls
	KeyTables     = attribute.Key("nl2sql.tables")   // relations the answer reads
	KeyContext    = attribute.Key("nl2sql.context.tables")
	KeyRepairs    = attribute.Key("nl2sql.repairs")     // deterministic repairs applied plus repair turns
	KeyRepairKind = attribute.Key("nl2sql.repair.kind") // rule (deterministic) or turn (the model's)
	KeyRows       = attribute.Key("nl2sql.rows")        // rows returned (a count, never a value)
	KeyErrorCode  = attribute.Key("nl2sql.error.code")  // the *nl2sql.Error's Code (SQLSTATE, V0xx, llm_*)
	KeyModelTime  = attribute.Key("nl2sql.model.duration")

	// A stage (span nl2sql.<stage>) and its metric.
	KeyStage = attribute.Key("nl2sql.stage")

	// Semantic conventions.
	KeyErrorType      = attribute.Key("error.type")
	KeyDBSystem       = attribute.Key("db.system.name") // postgresql
	KeyDBQueryText    = attribute.Key("db.query.text")  // only WithQueryText(true)
	KeyGenAIOperation = attribute.Key("gen_ai.operation.name")
	KeyGenAIProvider  = attribute.Key("gen_ai.provider.name")
	KeyRequestModel   = attribute.Key("gen_ai.request.model")
	KeyResponseModel  = attribute.Key("gen_ai.response.model")
	KeyInputTokens    = attribute.Key("gen_ai.usage.input_tokens")
	KeyOutputTokens   = attribute.Key("gen_ai.usage.output_tokens")
	KeyFinishReasons  = attribute.Key("gen_ai.response.finish_reasons")
	KeyTokenType      = attribute.Key("gen_ai.token.type") // input or output
)
