//! Builds a plugin registry, encodes it, decodes it through the owned and the
//! zero-copy API, and streams it as messages.

use std::error::Error;
use std::io::Cursor;

use registry::{
    decode_message, Message, MessageReader, MessageWriter, Parameter, Plugin, PluginRegistry,
    PluginRegistryRef, SdpMessage, SdpType, HELLO_ENTRIES, MESSAGE_HEADER_SIZE,
};

fn build() -> PluginRegistry {
    let plugins: Vec<Plugin> = (0..3)
        .map(|i| Plugin {
            name: format!("Plugin {i}"),
            manufacturer_id: "SDPx".into(),
            component_type: "aufx".into(),
            component_subtype: format!("p{i:03}"),
            parameters: (0..4)
                .map(|j| Parameter {
                    address: j,
                    display_name: format!("Param {j}"),
                    identifier: format!("param.{j}"),
                    unit: "dB".into(),
                    max_value: 1.0,
                    default_value: 0.5,
                    current_value: 0.25 * j as f32,
                    is_writable: true,
                    ..Default::default()
                })
                .collect(),
        })
        .collect();
    let total_parameter_count = plugins.iter().map(|p| p.parameters.len() as u32).sum();
    PluginRegistry {
        total_plugin_count: plugins.len() as u32,
        total_parameter_count,
        plugins,
    }
}

/// Generic code: every generated type implements `SdpType`, every struct
/// also `SdpMessage`.
fn framed_roundtrip<T: SdpMessage + PartialEq>(value: &T) -> Result<bool, Box<dyn Error>> {
    let framed = value.encode_message();
    let back = T::decode_message(&framed)?;
    Ok(back == *value && framed.len() > SdpType::encoded_size(value))
}

fn main() -> Result<(), Box<dyn Error>> {
    let reg = build();

    // Owned: encode with one allocation of the exact size, decode strictly.
    let bytes = reg.encode_to_vec();
    assert_eq!(bytes.len(), reg.encoded_size());
    // The fallible form: an error instead of a panic when a string or array
    // is longer than the wire's u32 count allows.
    assert_eq!(reg.try_encode_to_vec()?, bytes);
    let back = PluginRegistry::decode(&bytes)?;
    assert_eq!(back, reg);
    println!(
        "encoded {} plugins in {} bytes",
        reg.plugins.len(),
        bytes.len()
    );

    // Reuse: decode into an existing value, keeping the capacity of its
    // strings and vectors (no allocation once it has grown); a failed
    // decode resets it to the default value.
    let mut kept = PluginRegistry::default();
    for _ in 0..3 {
        kept.decode_into(&bytes)?;
    }
    assert_eq!(kept, reg);
    assert!(framed_roundtrip(&reg)?);

    // Zero-copy: strings borrow from `bytes`, lists decode lazily.
    let view = PluginRegistryRef::decode(&bytes)?;
    for plugin in view.plugins.iter() {
        let names: Vec<&str> = plugin.parameters.iter().map(|p| p.display_name).collect();
        println!(
            "{} ({}): {}",
            plugin.name,
            plugin.component_subtype,
            names.join(", ")
        );
    }
    assert_eq!(view.to_owned_value(), reg);

    // Messages: a header names the type, so a reader can dispatch.
    let msg = reg.encode_message();
    match decode_message(&msg)? {
        Message::PluginRegistry(r) => {
            println!("message: registry with {} plugins", r.plugins.len())
        }
        other => println!("message of type {}", other.message_type_id()),
    }

    // Streams: write messages to any io::Write (a MessageWriter encodes each
    // into one reused buffer), read them back one at a time.
    let mut writer = MessageWriter::new(Vec::new());
    for plugin in &reg.plugins {
        writer.write_message(plugin)?;
    }
    writer.write_message(&reg)?;
    let stream = writer.into_inner();
    let mut count = 0;
    for message in MessageReader::new(Cursor::new(&stream)).with_max_size(1 << 20) {
        let message = message?;
        count += 1;
        println!("streamed message {count}: type id {}", message.message_type_id());
    }
    // Or read every message into the same value, reusing its storage.
    let mut reader = MessageReader::new(Cursor::new(&stream));
    let mut last = Message::from(PluginRegistry::default());
    let mut again = 0;
    while reader.read_message_into(&mut last)? {
        again += 1;
    }
    assert_eq!(
        (again, &last),
        (count, &Message::PluginRegistry(reg.clone()))
    );
    // A stream error names the message (from 0) and the stream offset.
    let cut = &stream[..stream.len() - 1];
    for message in MessageReader::new(Cursor::new(cut)) {
        if let Err(e) = message {
            println!("cut stream: {e}");
        }
    }

    // The schema check: a hello first lists the fingerprint of every struct,
    // so a reader built from another version of the schema refuses the
    // stream (rule "schema", naming the type) before decoding any data.
    let mut writer = MessageWriter::new(Vec::new());
    writer.write_hello()?;
    writer.write_message(&Message::from(reg.clone()))?;
    let mut checked = writer.into_inner();
    let mut reader = MessageReader::new(Cursor::new(&checked)).with_require_hello(true);
    assert_eq!(
        reader.read_message()?,
        Some(Message::PluginRegistry(reg.clone()))
    );
    assert!(reader.schema_checked());
    // As if the writer had another version of Plugin: its fingerprint differs.
    let plugin = HELLO_ENTRIES
        .iter()
        .position(|e| e.name == "Plugin")
        .unwrap_or(0);
    checked[MESSAGE_HEADER_SIZE + 4 + 10 * plugin + 2] ^= 1;
    if let Err(e) = MessageReader::new(Cursor::new(&checked)).read_message() {
        println!("schema check: {e}");
    }

    // Corrupt input is rejected with the offset and type, never a panic.
    let mut bad = bytes.clone();
    bad.truncate(bytes.len() - 3);
    match PluginRegistry::decode(&bad) {
        Err(e) => println!("truncated input: {e}"),
        Ok(_) => unreachable!("a truncated registry cannot decode"),
    }
    Ok(())
}
