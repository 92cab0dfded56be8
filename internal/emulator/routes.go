package emulator

// registerRoutes is the one place that lists what the emulator serves. Every
// pattern registered here must be documented in an openapi/*.json fragment
// (a test checks it), except the console's under /console, which is the
// emulator's own page and not the service's interface (console.go). Each
// domain registers its own routes (mux.go has the plumbing); their more
// specific patterns win over the generic ones registered last.
func (s *Server) registerRoutes() {
	s.handle("GET /mail/swagger", s.docsAPI.serveOpenAPI)
	s.handle("GET "+swaggerUIBase+"{file}", s.docsAPI.serveSwaggerUIAsset)
	s.handle("POST "+OAuth2TokenPath, s.tokensAPI.issueToken)
	s.contactsAPI.registerContacts()
	s.batchesAPI.registerBatches()
	s.exportsAPI.registerExports()
	s.exportsAPI.registerObjectStore()
	s.importsAPI.registerImports()
	s.webhooksAPI.registerWebhooks()
	s.triggersAPI.registerTriggers()
	s.genericAPI.registerGeneric()
	s.consoleAPI.registerConsole()
}
