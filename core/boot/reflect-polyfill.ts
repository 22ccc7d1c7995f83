/**
 * The Reflect metadata polyfill that tsyringe and the decorators need, as an ES module of its own:
 * import this (not "reflect-metadata") ahead of anything that loads tsyringe. A bundler keeps the
 * order of ES module imports, but inlines a CommonJS side-effect import into its importer's body,
 * after that importer's ES dependencies (tsyringe among them) have run.
 */
import "reflect-metadata";
