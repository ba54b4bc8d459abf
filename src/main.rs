fn main() {
    println!("ladr");
}
