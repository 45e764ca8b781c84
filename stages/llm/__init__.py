"""The optional LLM layer: a guardrailed session summarizer, LLM rerank and query expansion, over a
model server that speaks Ollama's API. Nothing here imports the `ollama` client until a stage that
calls a model runs (docs/llm.md)."""
