# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.7151
64 27.435
EOD
$t0_1 << EOD
64 28.0547
EOD
$t0_2 << EOD
4 28.2731
64 49.518
EOD
$t0_3 << EOD
64 49.983
EOD
$t0_4 << EOD
4 29.1917
EOD
$t0_5 << EOD
4 46.5313
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
4 6.88134
64 4.74577
EOD
$t1_1 << EOD
64 4.13848
EOD
$t1_2 << EOD
4 9.16261
64 9.46615
EOD
$t1_3 << EOD
64 8.32246
EOD
$t1_4 << EOD
4 3.08642
EOD
$t1_5 << EOD
4 5.49779
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
4 5.8584
64 4.61016
EOD
$t2_1 << EOD
64 4.19708
EOD
$t2_2 << EOD
4 7.62938
64 7.01519
EOD
$t2_3 << EOD
64 8.57479
EOD
$t2_4 << EOD
4 3.96443
EOD
$t2_5 << EOD
4 6.06867
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
4 22.2779
64 18.0575
EOD
$t3_1 << EOD
64 17.8779
EOD
$t3_2 << EOD
4 40.4678
64 47.54
EOD
$t3_3 << EOD
64 44.9909
EOD
$t3_4 << EOD
4 13.0477
EOD
$t3_5 << EOD
4 26.0284
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
"cpu/sum: tilejit width-1, 1 thread" 1.02259
"cpu/sum: tilejit width-1, 2 threads" 1.00939
"cpu/sum: tilejit cooperative, 1 thread" 0.982385
"cpu/sum: tilejit cooperative, 2 threads" 1.64578
"cpu/histogram: tilejit width-1, 1 thread" 0.872037
"cpu/histogram: tilejit width-1, 2 threads" 0.879181
"cpu/histogram: tilejit cooperative, 1 thread" 0.44852
"cpu/histogram: tilejit cooperative, 2 threads" 0.600025
"cpu/compact: tilejit width-1, 1 thread" 0.910398
"cpu/compact: tilejit width-1, 2 threads" 1.22232
"cpu/compact: tilejit cooperative, 1 thread" 0.67671
"cpu/compact: tilejit cooperative, 2 threads" 0.795434
"cpu/copy: tilejit width-1, 1 thread" 0.990056
"cpu/copy: tilejit width-1, 2 threads" 0.94638
"cpu/copy: tilejit cooperative, 1 thread" 0.585679
"cpu/copy: tilejit cooperative, 2 threads" 0.643189
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
"ptx/store_doubled_thread_indices" 13.8182
"ptx/multiply_elements" 11.1732
"ptx/row_products" 7.65996
"ptx/replace_rows" 9.32535
"ptx/histogram" 10.491
"ptx/compact_values" 6.37458
"ptx/large" 1.6512
"ptx-first/store_doubled_thread_indices" 8.32187
"ptx-first/multiply_elements" 8.08407
"ptx-first/row_products" 6.05239
"ptx-first/replace_rows" 6.79433
"ptx-first/histogram" 7.5067
"ptx-first/compact_values" 5.06531
"ptx-first/large" 1.48189
"disk/store_doubled_thread_indices" 2.06912
"disk/store_doubled_thread_indices (CPU)" 6.83046
"disk/multiply_elements" 2.28249
"disk/multiply_elements (CPU)" 5.83573
"disk/row_products" 2.94153
"disk/row_products (CPU)" 6.9476
"disk/replace_rows" 2.49113
"disk/replace_rows (CPU)" 9.26634
"disk/histogram" 2.44135
"disk/histogram (CPU)" 7.73132
"disk/compact_values" 3.23438
"disk/compact_values (CPU)" 9.64326
"disk/large" 6.79816
"disk/large (CPU)" 32.0127
"source/store_doubled_thread_indices" 12.8068
"source-first/store_doubled_thread_indices" 8.23688
"source/multiply_elements" 10.6869
"source-first/multiply_elements" 7.17894
"source/row_products" 7.24856
"source-first/row_products" 5.55084
"source/replace_rows" 6.24133
"source-first/replace_rows" 6.57663
"source/histogram" 9.63132
"source-first/histogram" 5.37579
"source/compact_values" 4.44192
"source-first/compact_values" 4.58794
"source/large" 1.5779
"source-first/large" 1.57643
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
