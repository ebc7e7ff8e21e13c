"""How every host runs an op: the op table (`registry`), options decoding (`options`), progress
events (`events`), work kept off the event loop (`offload`) and the scan step (`scanning`)."""
