// Module memory for probes/crash-state/require-cache.mjs, loaded with require at run time. Not a probe.
module.exports = { marks: [] };
