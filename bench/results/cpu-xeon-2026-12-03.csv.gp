# Charts of the tilejit-bench run in /tmp/fullrun/cpu-xeon-2026-12-03.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh /tmp/fullrun/cpu-xeon-2026-12-03.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /tmp/fullrun/cpu-xeon-2026-12-03.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 28.51
64 22.8936
EOD
$t0_1 << EOD
64 22.585
EOD
$t0_2 << EOD
4 38.3777
64 45.9215
EOD
$t0_3 << EOD
64 46.9439
EOD
$t0_4 << EOD
4 7.0719
EOD
$t0_5 << EOD
4 12.2219
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
4 6.16122
64 4.41915
EOD
$t1_1 << EOD
64 3.89452
EOD
$t1_2 << EOD
4 8.76289
64 8.44442
EOD
$t1_3 << EOD
64 7.89627
EOD
$t1_4 << EOD
4 2.77306
EOD
$t1_5 << EOD
4 2.76108
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
4 3.37934
64 4.23761
EOD
$t2_1 << EOD
64 3.93569
EOD
$t2_2 << EOD
4 7.04714
64 5.03468
EOD
$t2_3 << EOD
64 7.71334
EOD
$t2_4 << EOD
4 0.41394
EOD
$t2_5 << EOD
4 1.21302
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
4 27.1746
64 13.9682
EOD
$t3_1 << EOD
64 13.7719
EOD
$t3_2 << EOD
4 39.7363
64 37.6261
EOD
$t3_3 << EOD
64 36.337
EOD
$t3_4 << EOD
4 3.71261
EOD
$t3_5 << EOD
4 7.20701
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
"cpu/sum: tilejit width-1, 1 thread" 0.986522
"cpu/sum: tilejit width-1, 2 threads" 1.02226
"cpu/sum: tilejit cooperative, 1 thread" 0.24805
"cpu/sum: tilejit cooperative, 2 threads" 0.318464
"cpu/histogram: tilejit width-1, 1 thread" 0.881282
"cpu/histogram: tilejit width-1, 2 threads" 0.935088
"cpu/histogram: tilejit cooperative, 1 thread" 0.450083
"cpu/histogram: tilejit cooperative, 2 threads" 0.315088
"cpu/compact: tilejit width-1, 1 thread" 0.928752
"cpu/compact: tilejit width-1, 2 threads" 1.53204
"cpu/compact: tilejit cooperative, 1 thread" 0.122491
"cpu/compact: tilejit cooperative, 2 threads" 0.17213
"cpu/copy: tilejit width-1, 1 thread" 0.985946
"cpu/copy: tilejit width-1, 2 threads" 0.965741
"cpu/copy: tilejit cooperative, 1 thread" 0.13662
"cpu/copy: tilejit cooperative, 2 threads" 0.181371
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
"ptx/store_doubled_thread_indices" 15.4109
"ptx/multiply_elements" 12.5467
"ptx/row_products" 8.57712
"ptx/replace_rows" 10.3739
"ptx/histogram" 12.0329
"ptx/compact_values" 7.49506
"ptx/large" 1.68736
"ptx-first/store_doubled_thread_indices" 7.78482
"ptx-first/multiply_elements" 7.16673
"ptx-first/row_products" 5.56056
"ptx-first/replace_rows" 8.01957
"ptx-first/histogram" 6.84765
"ptx-first/compact_values" 5.00321
"ptx-first/large" 1.58804
"disk/store_doubled_thread_indices" 3.34725
"disk/store_doubled_thread_indices (CPU)" 6.71383
"disk/multiply_elements" 3.66628
"disk/multiply_elements (CPU)" 6.02953
"disk/row_products" 3.33855
"disk/row_products (CPU)" 6.47367
"disk/replace_rows" 2.82417
"disk/replace_rows (CPU)" 8.92931
"disk/histogram" 2.59492
"disk/histogram (CPU)" 7.57304
"disk/compact_values" 3.40065
"disk/compact_values (CPU)" 9.46592
"disk/large" 6.18894
"disk/large (CPU)" 30.5368
"source/store_doubled_thread_indices" 14.5711
"source-first/store_doubled_thread_indices" 11.2042
"source/multiply_elements" 12.1735
"source-first/multiply_elements" 10.3846
"source/row_products" 8.60836
"source-first/row_products" 5.83996
"source/replace_rows" 10.0805
"source-first/replace_rows" 8.14176
"source/histogram" 11.4971
"source-first/histogram" 6.64067
"source/compact_values" 10.5794
"source-first/compact_values" 5.06904
"source/large" 1.63116
"source-first/large" 1.49445
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
