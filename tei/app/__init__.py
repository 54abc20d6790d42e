"""The application layer: what wires readers, stages and writers together for a command.

build (every stage from a manifest), encode (transcriptions), corpus (many works), collate (the inputs
of `tei collate`: witness files and manifests made into a Work), convert (the inputs of `tei convert` and
`tei witness`: TEI, or CollateX JSON made into an edition). The stages below never import readers or
writers; only this layer and the CLI above it do.
"""
