// An example of the Java backend: build a plugin registry, encode it, decode
// it back, see a decode error's rule, offset and path, and send messages
// through a stream with the schema check (hello).
//
//   sdp gen --lang java --package org.example.registry --out generated registry.sdp
//   javac --release 11 -d classes $(find generated -name '*.java') Main.java
//   java -cp classes example.Main
package example;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import org.example.registry.DecodeException;
import org.example.registry.MessageReader;
import org.example.registry.MessageWriter;
import org.example.registry.Messages;
import org.example.registry.Parameter;
import org.example.registry.Plugin;
import org.example.registry.PluginRegistry;
import org.example.registry.SdpMessage;

public final class Main {
    public static void main(String[] args) throws Exception {
        List<Plugin> plugins = new ArrayList<>();
        int parameters = 0;
        for (int i = 0; i < 62; i++) {
            Plugin p = new Plugin().name("Plugin " + i).manufacturerId("Acme").componentType("aufx");
            for (int j = 0; j < 3; j++) {
                p.parameters.add(new Parameter()
                        .address(i * 100L + j)
                        .displayName("Gain " + j)
                        .identifier("gain" + j)
                        .unit("dB")
                        .minValue(-96).maxValue(12).defaultValue(0).currentValue(-6)
                        .rawFlags(0xFFFFFFFFL)
                        .isWritable(true));
                parameters++;
            }
            plugins.add(p);
        }
        PluginRegistry reg = new PluginRegistry().plugins(plugins).totalPluginCount(62).totalParameterCount(parameters);

        byte[] bytes = reg.encode();
        System.out.println("encoded " + reg.plugins().size() + " plugins in " + bytes.length + " bytes (encodedSize "
                + reg.encodedSize() + ")");
        PluginRegistry back = PluginRegistry.decode(bytes);
        System.out.println("decoded: " + (back.equals(reg) ? "equal to the original" : "DIFFERENT"));
        System.out.println("raw_flags as unsigned: " + back.plugins().get(0).parameters().get(0).rawFlags());

        // Decoding into an existing value reuses its nested objects.
        PluginRegistry reused = new PluginRegistry();
        reused.decodeInto(bytes);
        System.out.println("decodeInto: " + (reused.equals(reg) ? "equal" : "DIFFERENT"));

        // A cut input fails with a rule, an offset and a path, as in every language.
        try {
            PluginRegistry.decode(java.util.Arrays.copyOf(bytes, bytes.length - 3));
        } catch (DecodeException e) {
            System.out.println("cut input: " + e.getMessage() + " (rule " + e.rule() + ", offset " + e.offset()
                    + ", path " + e.path() + ")");
        }

        // Messages carry a type id: the dispatcher returns the right class.
        SdpMessage m = Messages.decode(back.plugins().get(3).parameters().get(1).encodeMessage());
        if (m instanceof Parameter) {
            System.out.println("read a Parameter: " + ((Parameter) m).displayName());
        }

        // A stream of messages, started with the hello (the schema check).
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MessageWriter w = new MessageWriter(out);
        w.writeHello();
        w.write(reg);
        w.write(reg.plugins().get(0));
        MessageReader r = new MessageReader(new ByteArrayInputStream(out.toByteArray())).requireHello(true);
        int n = 0;
        for (SdpMessage msg = r.read(); msg != null; msg = r.read()) {
            n++;
        }
        System.out.println("read " + n + " messages from the stream, checked against the hello: " + r.schemaChecked());
    }
}
