package emulator

// checkMandatory verifies that e holds every mandatory field of its
// collection (s.mandatory[rules]) as a non-empty string. It runs on POST
// bodies and on the merged result of a PUT, so a PUT cannot null out a
// mandatory field either.
func (s *Server) checkMandatory(rules string, e map[string]any) *apiError {
	for _, f := range s.mandatory[rules] {
		v, ok := e[f]
		if !ok || v == nil {
			return fieldError(f, "%s is mandatory", f)
		}
		str, isString := v.(string)
		if !isString {
			return fieldError(f, "%s must be a string", f)
		}
		if str == "" {
			return fieldError(f, "%s is mandatory", f)
		}
	}
	return nil
}
