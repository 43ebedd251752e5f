# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-late-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-late-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-late-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 32.1381
64 32.4323
EOD
$t0_1 << EOD
64 37.386
EOD
$t0_2 << EOD
64 47.6055
64 43.9846
EOD
$t0_3 << EOD
64 53.3558
EOD
$t0_4 << EOD
64 24.8542
EOD
$t0_5 << EOD
64 41.1027
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.63381
64 5.31825
EOD
$t1_1 << EOD
64 6.03813
EOD
$t1_2 << EOD
64 11.3703
64 9.74492
EOD
$t1_3 << EOD
64 11.6509
EOD
$t1_4 << EOD
64 4.83062
EOD
$t1_5 << EOD
64 8.13765
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 8.4509
64 8.44087
EOD
$t2_1 << EOD
64 12.1222
EOD
$t2_2 << EOD
64 10.883
64 10.5805
EOD
$t2_3 << EOD
64 22.7104
EOD
$t2_4 << EOD
64 4.88255
EOD
$t2_5 << EOD
64 9.11317
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 27.2657
64 28.8767
EOD
$t3_1 << EOD
64 30.3582
EOD
$t3_2 << EOD
64 33.6548
64 33.3235
EOD
$t3_3 << EOD
64 37.7784
EOD
$t3_4 << EOD
64 25.506
EOD
$t3_5 << EOD
64 32.9956
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.16329
"cpu/sum: tilejit width-1, 2 threads" 1.12079
"cpu/sum: tilejit cooperative, 1 thread" 0.766341
"cpu/sum: tilejit cooperative, 2 threads" 0.934481
"cpu/histogram: tilejit width-1, 1 thread" 0.910205
"cpu/histogram: tilejit width-1, 2 threads" 1.02468
"cpu/histogram: tilejit cooperative, 1 thread" 0.90831
"cpu/histogram: tilejit cooperative, 2 threads" 0.835066
"cpu/compact: tilejit width-1, 1 thread" 1.43442
"cpu/compact: tilejit width-1, 2 threads" 2.08678
"cpu/compact: tilejit cooperative, 1 thread" 0.578442
"cpu/compact: tilejit cooperative, 2 threads" 0.86132
"cpu/copy: tilejit width-1, 1 thread" 1.11342
"cpu/copy: tilejit width-1, 2 threads" 1.12253
"cpu/copy: tilejit cooperative, 1 thread" 0.883274
"cpu/copy: tilejit cooperative, 2 threads" 0.990161
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 16.9562
"ptx/multiply_elements" 13.5822
"ptx/row_products" 10.05
"ptx/replace_rows" 11.5542
"ptx/histogram" 13.3873
"ptx/compact_values" 7.3934
"ptx/large" 1.73102
"ptx-first/store_doubled_thread_indices" 6.77755
"ptx-first/multiply_elements" 6.60731
"ptx-first/row_products" 6.08714
"ptx-first/replace_rows" 6.4289
"ptx-first/histogram" 7.37392
"ptx-first/compact_values" 5.30428
"ptx-first/large" 1.62421
"disk/store_doubled_thread_indices" 2.53407
"disk/store_doubled_thread_indices (CPU)" 7.35406
"disk/multiply_elements" 2.86932
"disk/multiply_elements (CPU)" 8.5174
"disk/row_products" 2.39978
"disk/row_products (CPU)" 6.97453
"disk/replace_rows" 2.41144
"disk/replace_rows (CPU)" 8.22553
"disk/histogram" 1.92168
"disk/histogram (CPU)" 7.66263
"disk/compact_values" 2.79672
"disk/compact_values (CPU)" 10.2034
"disk/large" 4.99273
"disk/large (CPU)" 30.2231
"source/store_doubled_thread_indices" 16.1326
"source-first/store_doubled_thread_indices" 6.39339
"source/multiply_elements" 13.3723
"source-first/multiply_elements" 7.12615
"source/row_products" 9.65636
"source-first/row_products" 6.04714
"source/replace_rows" 11.3138
"source-first/replace_rows" 5.90403
"source/histogram" 12.9668
"source-first/histogram" 5.87497
"source/compact_values" 7.17604
"source-first/compact_values" 4.4607
"source/large" 1.65193
"source-first/large" 1.53589
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
