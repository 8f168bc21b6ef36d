//! Encodes a batch of sensor readings with the code that build.rs generated
//! from sensors.sdp, decodes it back, and shows how bad input is reported.

// The generated module: one self-contained file in OUT_DIR.
mod sensors {
    include!(concat!(env!("OUT_DIR"), "/sensors.rs"));
}

use sensors::{Batch, Reading, Unit};

fn main() {
    let batch = Batch {
        device: "greenhouse-1".to_string(),
        readings: vec![
            Reading {
                sensor: "air".to_string(),
                unit: Unit::Celsius,
                value: 21.5,
                taken_at: 1_700_000_000,
            },
            Reading {
                sensor: "soil".to_string(),
                unit: Unit::Percent,
                value: 43.0,
                taken_at: 1_700_000_001,
            },
        ],
        battery: Some(0.87),
    };
    let bytes = batch.encode_to_vec();
    let back = Batch::decode(&bytes).expect("what we encoded decodes");
    assert_eq!(back, batch);
    println!(
        "{} sent {} readings in {} bytes; round trip ok",
        back.device,
        back.readings.len(),
        bytes.len()
    );
    match Batch::decode(&bytes[..bytes.len() - 3]) {
        Ok(_) => println!("truncated input decoded?"),
        Err(e) => println!("truncated input: {e}"),
    }
}
