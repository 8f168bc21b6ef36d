package naming

import "testing"

func TestCases(t *testing.T) {
	for _, c := range []struct{ in, pascal, camel, snake string }{
		{"display_name", "DisplayName", "displayName", "display_name"},
		{"PluginRegistry", "PluginRegistry", "pluginRegistry", "plugin_registry"},
		{"u8_val", "U8Val", "u8Val", "u8_val"},
		{"HTTPServer", "HTTPServer", "httpServer", "http_server"},
		{"x", "X", "x", "x"},
		{"Self_", "Self", "self", "self"},
		{"total_plugin_count", "TotalPluginCount", "totalPluginCount", "total_plugin_count"},
		{"maybe2go", "Maybe2go", "maybe2go", "maybe2go"},
	} {
		if got := Pascal(c.in); got != c.pascal {
			t.Errorf("Pascal(%q) = %q, want %q", c.in, got, c.pascal)
		}
		if got := Camel(c.in); got != c.camel {
			t.Errorf("Camel(%q) = %q, want %q", c.in, got, c.camel)
		}
		if got := Snake(c.in); got != c.snake {
			t.Errorf("Snake(%q) = %q, want %q", c.in, got, c.snake)
		}
	}
	if got := ScreamingSnake("DeviceKind"); got != "DEVICE_KIND" {
		t.Errorf("ScreamingSnake = %q", got)
	}
}

func TestInitialisms(t *testing.T) {
	for _, c := range []struct{ in, pascal, camel string }{
		{"manufacturer_id", "ManufacturerID", "manufacturerID"},
		{"id", "ID", "id"},
		{"url_path", "URLPath", "urlPath"},
		{"device_uuid_v2", "DeviceUUIDV2", "deviceUUIDV2"},
		{"utf8_name", "UTF8Name", "utf8Name"},
		{"HTTPServer", "HTTPServer", "httpServer"},
		{"ids", "Ids", "ids"},
		{"display_name", "DisplayName", "displayName"},
	} {
		if got := PascalInitialisms(c.in); got != c.pascal {
			t.Errorf("PascalInitialisms(%q) = %q, want %q", c.in, got, c.pascal)
		}
		if got := CamelInitialisms(c.in); got != c.camel {
			t.Errorf("CamelInitialisms(%q) = %q, want %q", c.in, got, c.camel)
		}
	}
}
