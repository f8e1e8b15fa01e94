/// One body part of the synthetic person: an ellipse, possibly rotated, standing upright at
/// depth `z` in front of the colour camera, bulging toward the camera at its centre. The
/// silhouette is the flat ellipse at `z`, so colour, truth and depth all agree on it whichever
/// camera looks.
struct SyntheticShape {
    enum Paint: UInt8 {
        case shirt
        case sleeve
        case skin
        case head
        // GroupScene's clothes and thin parts.
        case jumper
        case hair
        case trousers
        case shoe
    }

    var centreX: Float = 0
    var centreY: Float = 0
    var radiusX: Float = 1
    var radiusY: Float = 1
    var cosine: Float = 1
    var sine: Float = 0
    var z: Float = 1000
    /// How much farther the rim is than the centre, millimetres.
    var bulge: Float = 0
    var paint: Paint = .shirt

    init() {}

    /// An upright ellipse (a head, a torso, a shoe).
    init(centre: (Float, Float), radii: (Float, Float), z: Float, bulge: Float, paint: Paint) {
        centreX = centre.0
        centreY = centre.1
        radiusX = radii.0
        radiusY = radii.1
        self.z = z
        self.bulge = bulge
        self.paint = paint
    }

    /// An ellipse whose long axis runs from one point to another, `thickness` wide (a limb).
    init(from a: (Float, Float), to b: (Float, Float), thickness: Float, z: Float, paint: Paint) {
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        let length = (dx * dx + dy * dy).squareRoot()
        centreX = (a.0 + b.0) / 2
        centreY = (a.1 + b.1) / 2
        radiusX = length / 2 + thickness / 2
        radiusY = thickness / 2
        cosine = length > 0 ? dx / length : 1
        sine = length > 0 ? dy / length : 0
        self.z = z
        bulge = thickness / 3
        self.paint = paint
    }

    /// Normalised squared radius of the point (x, y) on the shape's plane: < 1 inside.
    @inline(__always)
    func radiusSquared(x: Float, y: Float) -> Float {
        let dx = x - centreX
        let dy = y - centreY
        let u = (dx * cosine + dy * sine) / radiusX
        let v = (dy * cosine - dx * sine) / radiusY
        return u * u + v * v
    }

    /// Half the extents of the axis-aligned box around the shape.
    var halfExtent: (Float, Float) {
        let ex = ((radiusX * cosine) * (radiusX * cosine) + (radiusY * sine) * (radiusY * sine)).squareRoot()
        let ey = ((radiusX * sine) * (radiusX * sine) + (radiusY * cosine) * (radiusY * cosine)).squareRoot()
        return (ex, ey)
    }
}
