"""Citations in an answer: parsed, resolved to a document and page, and judged against the passage they point at.

The pieces live in one room: `parse` (what the model wrote), `resolve` (which document and page it means),
`figures`, `counts`, `polarity` and `names` (what a claim asserts), `passage` (the stretch of the page that is judged and
highlighted), `binding` and `tables` (what the passage ties each figure and name to), `rules` (the verdict),
`verify` (all of it for one answer), `highlight` (where the passage is printed), and `model_judge`,
`judge_reply` and `second_opinion` (the optional second opinion of a model). Import from the modules: this
package imports nothing, so the render process can use `highlight` without loading the store.
"""
